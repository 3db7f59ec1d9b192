import Foundation
import Testing

/// Home and identity, and security events that reach the inbox (items F, G and the Auth part of H of
/// "Close the trust boundary"), through the real `moa` binary.
@Suite("home, identity and security events end to end")
struct IdentityEndToEndTests {
    static let email = "ada@example.com"
    static let password = "a long passphrase nobody guesses"
    static let pin = "482913"
    static let wrongPin = "605172"

    static func typed(_ answers: [String]) -> String {
        answers.joined(separator: "\n") + "\n"
    }

    static func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    static func mode(_ url: URL) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int ?? -1
    }

    /// Sets the mode of the database and of its WAL and shared-memory files (when they exist).
    static func setDatabaseMode(_ mode: Int, in moa: MoaProcess) throws {
        for name in ["moa.sqlite", "moa.sqlite-wal", "moa.sqlite-shm"] {
            let path = moa.home.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path) else { continue }
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        }
    }

    /// The kinds of the notices in the logged-in user's inbox.
    static func inboxKinds(_ moa: MoaProcess) throws -> [String] {
        let result = try moa.run(["inbox", "--json"])
        let notices = try json(result.out)["notices"] as? [[String: Any]] ?? []
        return notices.compactMap { $0["kind"] as? String }
    }

    // MARK: - F. Home

    @Test func anEmptyHomeOptionIsAUsageErrorAndNothingIsCreated() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let variable = moa.home.appendingPathComponent("from-the-variable")
        let fakeHome = moa.home.appendingPathComponent("user-home")
        for arguments in [
            ["--home", "", "account", "list"], ["auth", "whoami", "--home", ""], ["--home", "   "], ["doctor", "--home", ""],
        ] {
            let result = try moa.run(arguments, environment: ["MOA_HOME": variable.path, "HOME": fakeHome.path])
            #expect(result.status == 64, "\(arguments): \(result.err)")
            #expect(result.err.contains("The --home option names no folder."), "\(arguments)")
            #expect(!result.err.contains(".."))
        }
        let json = try moa.run(["--json", "--home", "", "auth", "whoami"])
        #expect(json.status == 64)
        #expect((try Self.json(json.err)["error"] as? [String: Any])?["exit_status"] as? Int == 64)
        #expect(!FileManager.default.fileExists(atPath: variable.path), "neither $MOA_HOME…")
        #expect(!FileManager.default.fileExists(atPath: fakeHome.appendingPathComponent(".moa").path), "…nor ~/.moa is created")
        #expect(!FileManager.default.fileExists(atPath: moa.home.appendingPathComponent("moa.sqlite").path))
    }

    @Test func anEmptyMoaHomeVariableIsAConfigurationErrorAndNothingIsCreated() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let fakeHome = moa.home.appendingPathComponent("user-home")
        for value in ["", "  "] {
            let result = try moa.run(["auth", "whoami"], environment: ["MOA_HOME": value, "HOME": fakeHome.path])
            #expect(result.status == 78, "\(result.err)")
            #expect(result.err.contains("The MOA_HOME environment variable is set but names no folder."))
        }
        #expect(!FileManager.default.fileExists(atPath: fakeHome.appendingPathComponent(".moa").path))
        // An explicit --home still wins over the variable.
        let explicit = try moa.run(["auth", "whoami", "--home", moa.home.path], environment: ["MOA_HOME": ""])
        #expect(explicit.status == 77, "\(explicit.err)")
    }

    @Test func aHomeOthersCanWriteToIsMadeOwnerOnlyOnceAndSaidSo() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        #expect(try moa.run(["doctor"]).status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: moa.home.path)

        let first = try moa.run(["auth", "whoami"])
        #expect(first.status == 77)
        #expect(first.err.contains("The Moa folder \(moa.home.path) was writable by other users (0777): it is now owner-only (0700)."))
        #expect(try Self.mode(moa.home) == 0o700)

        let second = try moa.run(["auth", "whoami"])
        #expect(!second.err.contains("writable by other users"), "said once")
        let doctor = try moa.run(["doctor"])
        #expect(doctor.status == 0, "\(doctor.out)\(doctor.err)")
        #expect(doctor.out.contains("Permissions OK: only you can read or change what moa keeps in \(moa.home.path) (0700)."))
    }

    @Test func theDoctorReportsFilesOtherUsersCanReadOrChange() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: moa.home.path)
        let healthy = try moa.run(["doctor"])
        #expect(healthy.status == 0)
        #expect(healthy.out.contains("Permissions OK"))
        let healthyJSON = try Self.json(try moa.run(["--json", "doctor"]).out)
        #expect((healthyJSON["permissions"] as? [String: Any])?["ok"] as? Bool == true)

        // SQLite gives the database's WAL and shared-memory files the database's mode: they count too.
        let database = moa.home.appendingPathComponent("moa.sqlite")
        try Self.setDatabaseMode(0o644, in: moa)
        let readable = try moa.run(["doctor"])
        #expect(readable.status == 78, "\(readable.out)\(readable.err)")
        #expect(readable.out.contains("Permissions wrong ("))
        #expect(readable.out.contains("The database \(database.path) is 0644 in a home other users can enter: they can read it"))
        #expect(readable.err.contains("The home's permissions have "))
        #expect(readable.err.contains(" (listed above).") && !readable.err.contains(".."))

        try Self.setDatabaseMode(0o666, in: moa)
        let json = try moa.run(["--json", "doctor"])
        #expect(json.status == 78)
        let permissions = try Self.json(json.out)["permissions"] as? [String: Any]
        #expect(permissions?["ok"] as? Bool == false)
        #expect(permissions?["mode"] as? String == "0755")
        #expect((permissions?["problems"] as? [String])?.first?.contains("other users can change it") == true)

        try Self.setDatabaseMode(0o600, in: moa)
        #expect(try moa.run(["doctor"]).status == 0)
    }

    // MARK: - F. Identity

    @Test func aFullWidthLookAlikeIsTheSameAccount() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn(Self.email, password: Self.password)

        let lookAlike = try moa.run(["auth", "signup", "--email", "ａｄａ@example.com", "--password-stdin"], stdin: Self.password)
        // Answered as any sign-up is (nothing tells the address has an account); its owner is mailed.
        #expect(lookAlike.status == 0, "\(lookAlike.err)")
        #expect(lookAlike.out.contains("A verification code is on its way to ada@example.com."))
        let outbox = moa.home.appendingPathComponent("outbox")
        let notices = try FileManager.default.contentsOfDirectory(atPath: outbox.path).filter {
            (try? String(contentsOf: outbox.appendingPathComponent($0), encoding: .utf8))?.contains("Someone tried to sign up") == true
        }
        #expect(notices.count == 1)

        let login = try moa.run(["auth", "login", "--email", "ＡＤＡ@Example.com", "--password-stdin"], stdin: Self.password)
        #expect(login.status == 0, "\(login.err)")
        let whoami = try Self.json(try moa.run(["auth", "whoami", "--json"]).out)
        #expect(whoami["email"] as? String == "ada@example.com")

        let invisible = try moa.run(["auth", "signup", "--email", "ada\u{202E}@example.com", "--password-stdin"], stdin: Self.password)
        #expect(invisible.status == 65)
        #expect(invisible.err.contains("it contains a control or invisible formatting character."))
        #expect(!invisible.err.unicodeScalars.contains("\u{202E}"))
    }

    // MARK: - G. Security events in the inbox

    @Test func aLoginLockoutReachesTheOwnersInboxAndAnswersAsForNobody() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn(Self.email, password: Self.password)
        // Someone at this machine guesses Ada's password, and a password of an address without an account.
        var answers: [String: [String]] = [:]
        for email in [Self.email, "nobody@example.com"] {
            for _ in 0..<6 {
                let result = try moa.run(["auth", "login", "--email", email, "--password-stdin"], stdin: "wrong guess, wrong guess")
                // The lockout's end is to the second: the two addresses were locked a moment apart.
                let err = String(result.err.unicodeScalars.filter { !CharacterSet.decimalDigits.contains($0) })
                answers[email, default: []].append("\(result.status) \(err)")
            }
        }
        #expect(answers[Self.email] == answers["nobody@example.com"], "the caller learns nothing")
        #expect(answers[Self.email]?.last?.hasPrefix("75 ") == true)
        #expect(try Self.inboxKinds(moa).filter { $0 == "login-lockout" }.count == 1, "Ada, still logged in, is told")
    }

    @Test func removingThePinNeedsThePinOrThePasswordAndIsNoted() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn(Self.email, password: Self.password)
        #expect(try moa.run(["auth", "pin", "set", "--pin-stdin"], stdin: Self.typed([Self.pin, Self.pin])).status == 0)

        let unasked = try moa.run(["auth", "pin", "remove"])
        #expect(unasked.status == 64)
        #expect(unasked.err.contains("pipe it into --pin-stdin, or your password into --password-stdin."))
        let wrongPin = try moa.run(["auth", "pin", "remove", "--pin-stdin"], stdin: Self.typed([Self.wrongPin]))
        #expect(wrongPin.status == 77)
        #expect(wrongPin.err.contains("The PIN is wrong (4 tries left)."))
        let wrongPassword = try moa.run(["auth", "pin", "remove", "--password-stdin"], stdin: "not my password at all")
        #expect(wrongPassword.status == 77)
        #expect(wrongPassword.err.contains("The current password is wrong."))
        #expect(try Self.json(try moa.run(["auth", "pin", "status", "--json"]).out)["pin_set"] as? Bool == true)

        let removed = try moa.run(["auth", "pin", "remove", "--pin-stdin"], stdin: Self.typed([Self.pin]))
        #expect(removed.status == 0, "\(removed.err)")
        #expect(removed.out.contains("PIN removed for ada@example.com."))
        for output in [unasked, wrongPin, wrongPassword, removed] {
            #expect(!(output.out + output.err).contains(Self.pin) && !(output.out + output.err).contains(Self.wrongPin))
        }
        #expect(try Self.inboxKinds(moa).contains("pin-removed"))
        #expect(try moa.run(["auth", "pin", "remove"]).out.contains("ada@example.com had no PIN."), "nothing to ask any more")
    }

    @Test func aPinLockoutReachesTheInbox() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn(Self.email, password: Self.password)
        #expect(try moa.run(["auth", "pin", "set", "--pin-stdin"], stdin: Self.typed([Self.pin, Self.pin])).status == 0)
        let prompt = try moa.run([], stdin: Self.typed(Array(repeating: Self.wrongPin, count: 5) + ["0"]))
        #expect(prompt.out.contains("Too many wrong PINs — sign in with your password."))
        #expect(try moa.run(["auth", "login", "--email", Self.email, "--password-stdin"], stdin: Self.password).status == 0)
        #expect(try Self.inboxKinds(moa).filter { $0 == "pin-lockout" }.count == 1)
    }

    // MARK: - H. The reset-code lockout

    @Test func fiveWrongResetCodesSayWhatHappenedNotFailedLogins() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn(Self.email, password: Self.password)
        #expect(try moa.run(["auth", "logout"]).status == 0)
        #expect(try moa.run(["auth", "password", "reset", "--email", Self.email]).status == 0)
        let code = try moa.mailedCode(to: Self.email, kind: "reset")
        let wrong = code == "000000" ? "111111" : "000000"
        let reset = ["auth", "password", "reset", "--email", Self.email, "--code", wrong, "--password-stdin"]
        for _ in 0..<5 {
            #expect(try moa.run(reset, stdin: "a brand new passphrase for moa").status == 77)
        }
        let locked = try moa.run(reset, stdin: "a brand new passphrase for moa")
        #expect(locked.status == 75)
        #expect(locked.err.contains("Too many wrong codes for this address from here: no code is accepted from here before "))
        #expect(!locked.err.contains("failed logins"))
        #expect(!locked.err.contains(code))
    }
}
