import Foundation
import Testing

/// PIN quick unlock through the real `moa` binary: `moa auth pin …` with the PIN piped on standard
/// input, then `moa` alone (the interactive mode) asking for it before the home.
@Suite("moa auth pin and the interactive unlock end to end")
struct PinEndToEndTests {
    static let email = "ada@example.com"
    static let password = "a long passphrase nobody guesses"
    static let pin = "482913"
    static let wrong = "605172"

    static func typed(_ answers: [String]) -> String {
        answers.joined(separator: "\n") + "\n"
    }

    static func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    @Test func setThePinThenTheInteractiveModeAsksForItAndShowsTheHome() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn(Self.email, password: Self.password)

        let set = try moa.run(["auth", "pin", "set", "--pin-stdin"], stdin: Self.typed([Self.pin, Self.pin]))
        #expect(set.status == 0, "stderr: \(set.err)")
        #expect(set.out.contains("PIN set for ada@example.com."))
        #expect(!set.out.contains(Self.pin) && !set.err.contains(Self.pin))
        let status = try Self.json(try moa.run(["auth", "pin", "status", "--json"]).out)
        #expect(status["pin_set"] as? Bool == true)
        #expect(status["tries_left"] as? Int == 5)

        let result = try moa.run([], stdin: Self.typed([Self.wrong, Self.pin, "0"]))
        #expect(result.status == 0, "stderr: \(result.err)")
        let out = result.out
        #expect(
            out.hasPrefix("Welcome back, ada@example.com. Enter your PIN to continue (an empty line quits).\nEnter your PIN: "),
            "the PIN comes before the home")
        #expect(out.contains("Enter your PIN: error: The PIN is wrong (4 tries left)."))
        #expect(ScreenText.line(in: out, containing: ["│ Logged in as ada@example.com"]))
        #expect(out.contains("  1. Accounts and transfers\n"))
        #expect(!out.contains(Self.pin) && !out.contains(Self.wrong), "no PIN is echoed")
        #expect(out.hasSuffix("Bye.\n"))
        #expect(
            try Self.json(try moa.run(["auth", "pin", "status", "--json"]).out)["tries_left"] as? Int == 5, "the right PIN reset the count")
    }

    @Test func weakMismatchedOrMissingPinsAreRefusedWithTheirReason() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let anonymous = try moa.run(["auth", "pin", "set", "--pin-stdin"], stdin: Self.typed([Self.pin, Self.pin]))
        #expect(anonymous.status == 77)
        #expect(anonymous.err.contains("Not logged in"))

        try moa.loggedIn(Self.email, password: Self.password)
        let cases: [(stdin: [String], status: Int32, message: String)] = [
            (["123456", "123456"], 65, "The PIN must not be a run of consecutive digits (like 123456, 987654 or 890123)."),
            (["111111", "111111"], 65, "The PIN must not be one digit repeated (like 111111)."),
            (["48291", "48291"], 65, "A PIN is exactly 6 digits long."),
            (["48a913", "48a913"], 65, "A PIN is made of the digits 0 to 9 only."),
            ([Self.pin, Self.wrong], 65, "The two PINs do not match."),
            ([Self.pin], 64, "--pin-stdin reads two lines from standard input: the PIN, then the PIN again."),
        ]
        for refused in cases {
            let result = try moa.run(["auth", "pin", "set", "--pin-stdin"], stdin: Self.typed(refused.stdin))
            #expect(result.status == refused.status, "\(refused.message) — stderr: \(result.err)")
            #expect(result.err.contains(refused.message))
        }
        #expect(try Self.json(try moa.run(["auth", "pin", "status", "--json"]).out)["pin_set"] as? Bool == false)

        // Without a PIN the interactive mode asks nothing, as before.
        let home = try moa.run([], stdin: Self.typed(["0"]))
        #expect(home.status == 0)
        #expect(!home.out.contains("Enter your PIN"))
        #expect(ScreenText.line(in: home.out, containing: ["│ Logged in as ada@example.com"]))
    }

    @Test func wrongPinsCountAcrossRestartsAndTheFifthEndsTheSession() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn(Self.email, password: Self.password)
        #expect(try moa.run(["auth", "pin", "set", "--pin-stdin"], stdin: Self.typed([Self.pin, Self.pin])).status == 0)

        // Two wrong PINs, then an empty line: quits cleanly, the home never shown.
        let first = try moa.run([], stdin: Self.typed([Self.wrong, Self.wrong, ""]))
        #expect(first.status == 0, "stderr: \(first.err)")
        #expect(first.out.contains("(3 tries left)"))
        #expect(!first.out.contains("What would you like to do?"))
        #expect(first.out.hasSuffix("Bye.\n"))

        // Started again, the count goes on; the fifth wrong PIN ends the session, the home offers the login.
        let second = try moa.run(
            [],
            stdin: Self.typed([
                Self.wrong, Self.wrong, Self.wrong,
                "1", "1", Self.email, Self.password, "0",
            ]))
        #expect(second.status == 0, "stderr: \(second.err)")
        let out = second.out
        #expect(out.contains("The PIN is wrong (2 tries left)."))
        #expect(out.contains("The PIN is wrong (1 try left)."))
        #expect(out.contains("error: Too many wrong PINs — sign in with your password."))
        let afterLockout = ScreenText.section(of: out, from: "Too many wrong PINs", to: "Bye.")
        #expect(ScreenText.line(in: afterLockout, containing: ["│ Not logged in"]))
        #expect(afterLockout.contains("  1. Log in or sign up\n"))
        #expect(afterLockout.contains("E-mail: Password: Logged in as ada@example.com."))
        #expect(!out.contains(Self.password) && !out.contains(Self.wrong))

        // The new session (from the password) is unlocked by the PIN, with five fresh tries.
        let third = try moa.run([], stdin: Self.typed([Self.pin, "0"]))
        #expect(third.status == 0, "stderr: \(third.err)")
        #expect(!third.out.contains("error:"))
        #expect(ScreenText.line(in: third.out, containing: ["│ Logged in as ada@example.com"]))

        // Removing the PIN (it asks for the PIN first): no prompt any more.
        let removed = try moa.run(["auth", "pin", "remove", "--pin-stdin"], stdin: Self.typed([Self.pin]))
        #expect(removed.status == 0)
        #expect(removed.out.contains("PIN removed for ada@example.com."))
        #expect(!(try moa.run([], stdin: Self.typed(["0"])).out.contains("Enter your PIN")))
    }

    @Test func aLockoutRevokesTheSessionForEveryCommand() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn(Self.email, password: Self.password)
        #expect(try moa.run(["auth", "pin", "set", "--pin-stdin"], stdin: Self.typed([Self.pin, Self.pin])).status == 0)
        let result = try moa.run([], stdin: Self.typed(Array(repeating: Self.wrong, count: 5) + ["0"]))
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.out.contains("Too many wrong PINs — sign in with your password."))
        #expect(!FileManager.default.fileExists(atPath: moa.home.appendingPathComponent("session.json").path))
        #expect(try moa.run(["auth", "whoami"]).status == 77)
    }
}
