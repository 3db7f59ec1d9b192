import Foundation
import Testing

@Suite("moa auth end to end")
struct AuthEndToEndTests {
    static let password = "a long passphrase nobody guesses"

    /// The other end-to-end tests hash at the tests' cost (`MOA_TESTING_CHEAP_SCRYPT=1`); `moa` itself
    /// hashes at OWASP's, and re-hashes a cheaper stored hash at the next right login.
    @Test func passwordsAreHashedAtOWASPsCostAndACheaperHashIsUpgradedAtLogin() throws {
        var moa = try MoaProcess()
        defer { moa.remove() }
        try moa.loggedIn()
        #expect(try moa.sql("SELECT password_hash FROM auth_users").hasPrefix("$scrypt$ln=10,r=8,p=1$"))

        moa.realPasswordCost = true
        let login = try moa.run(["auth", "login", "--email", "ada@example.com", "--password-stdin"], stdin: Self.password + "\n")
        #expect(login.status == 0, "\(login.err)")
        #expect(try moa.sql("SELECT password_hash FROM auth_users").hasPrefix("$scrypt$ln=17,r=8,p=1$"))

        let other = try MoaProcess(realPasswordCost: true)
        defer { other.remove() }
        try other.loggedIn("grace@example.com")
        #expect(try other.sql("SELECT password_hash FROM auth_users").hasPrefix("$scrypt$ln=17,r=8,p=1$"))
    }

    @Test func signUpVerifyLoginWhoAmILogoutWithoutLeakingASecret() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        var outputs: [String] = []
        func run(_ arguments: [String], stdin: String = "") throws -> MoaProcess.Result {
            let result = try moa.run(arguments + ["--verbose"], stdin: stdin)
            outputs += [result.out, result.err]
            return result
        }

        let signUp = try run(["auth", "signup", "--email", "ada@example.com", "--password-stdin"], stdin: Self.password + "\n")
        #expect(signUp.status == 0, "\(signUp.err)")
        #expect(signUp.out.contains("A verification code is on its way to ada@example.com."))
        #expect(signUp.out.contains(moa.home.appendingPathComponent("outbox").path))
        let code = try moa.mailedCode(to: "ada@example.com")

        let early = try run(["auth", "login", "--email", "ada@example.com", "--password-stdin"], stdin: Self.password + "\n")
        #expect(early.status == 77)
        #expect(early.err.contains("or the address is not verified yet"))

        let verify = try run(["auth", "verify", "--email", "ada@example.com", "--code", code, "--password-stdin"], stdin: Self.password)
        #expect(verify.status == 0, "\(verify.err)")

        let login = try run(["auth", "login", "--email", "ada@example.com", "--password-stdin"], stdin: Self.password + "\n")
        #expect(login.status == 0, "\(login.err)")
        #expect(login.out.contains("Logged in as ada@example.com."))

        let session = moa.home.appendingPathComponent("session.json")
        let mode = try FileManager.default.attributesOfItem(atPath: session.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let tokens = try JSONSerialization.jsonObject(with: Data(contentsOf: session)) as? [String: Any]
        let access = try #require(tokens?["access_token"] as? String ?? tokens?["accessToken"] as? String)
        let refresh = try #require(tokens?["refresh_token"] as? String ?? tokens?["refreshToken"] as? String)

        let whoami = try run(["auth", "whoami", "--json"])
        #expect(whoami.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(whoami.out.utf8)) as? [String: Any]
        #expect(object?["email"] as? String == "ada@example.com")
        #expect(object?["status"] as? String == "logged-in")

        let logout = try run(["auth", "logout"])
        #expect(logout.status == 0)
        #expect(!FileManager.default.fileExists(atPath: session.path))

        let after = try run(["auth", "whoami"])
        #expect(after.status == 77)
        #expect(after.err.contains("Not logged in — run `moa auth login`"))

        for output in outputs {
            #expect(!output.contains(Self.password))
            #expect(!output.contains(access))
            #expect(!output.contains(refresh))
            #expect(!output.contains(code) || output.contains("--code \(code)") == false)
        }
    }

    @Test func aSessionFileReadableByOthersIsRefusedWithTheFix() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.run(["auth", "signup", "--email", "bo@example.com", "--password-stdin"], stdin: Self.password)
        try moa.run(
            ["auth", "verify", "--email", "bo@example.com", "--code", try moa.mailedCode(to: "bo@example.com"), "--password-stdin"],
            stdin: Self.password)
        try moa.run(["auth", "login", "--email", "bo@example.com", "--password-stdin"], stdin: Self.password)
        let session = moa.home.appendingPathComponent("session.json").path
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: session)
        let result = try moa.run(["auth", "whoami"])
        #expect(result.status == 77)
        #expect(result.err.contains("can be read by other users"))
        #expect(result.err.contains("chmod 600 \(session)"))
    }

    @Test func aWrongPasswordAndAnUnknownAddressGetTheSameAnswer() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.run(["auth", "signup", "--email", "cy@example.com", "--password-stdin"], stdin: Self.password)
        let known = try moa.run(["auth", "login", "--email", "cy@example.com", "--password-stdin"], stdin: "wrong passphrase, wrong wrong")
        let unknown = try moa.run(
            ["auth", "login", "--email", "nobody@example.com", "--password-stdin"], stdin: "wrong passphrase, wrong wrong")
        #expect(known.status == 77)
        #expect(known.status == unknown.status)
        #expect(known.err == unknown.err)
    }

    @Test func withoutATerminalAPasswordMustComeFromStandardInput() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let result = try moa.run(["auth", "login", "--email", "ada@example.com"])
        #expect(result.status == 64)
        #expect(result.err.contains("--password-stdin"))
    }
}
