import Foundation
import SharedKit
import Storage
import Testing

/// Where secrets are kept: the home's owner-only files, the system's store (the Secret Service for
/// real when `MOA_TEST_SECRET_SERVICE=1`, as `.ci/run` sets inside a private D-Bus session with
/// gnome-keyring), and moving from one to the other.
@Suite("Storage: the credential store")
struct CredentialStoreTests {
    let home: MoaHome

    init() {
        home = MoaHome(root: FileManager.default.temporaryDirectory.appendingPathComponent("moa-credentials-\(UUID().uuidString)"))
    }

    private func name(_ text: String) throws -> CredentialName { try #require(CredentialName(text)) }

    @Test func namesAreLowerCaseASCIIAndShort() {
        #expect(CredentialName("settings.device.search.api-token") != nil)
        #expect(CredentialName("session.tokens") != nil)
        for bad in ["", "Upper", "a/b", "../x", "a b", "é", String(repeating: "a", count: 121), "a\u{0}b"] {
            #expect(CredentialName(bad) == nil, "\(bad)")
        }
    }

    @Test func filesAreOwnerOnlyAndReadBack() throws {
        defer { try? FileManager.default.removeItem(at: home.root) }
        let store = FileCredentialStore(home: home)
        #expect(try store.secret(name("a.b")) == nil)
        try store.store("s3cret with spaces\nand a newline", as: name("a.b"))
        #expect(try store.secret(name("a.b")) == "s3cret with spaces\nand a newline")
        let file = home.secretsURL.appendingPathComponent("a.b")
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: home.secretsURL.path)[.posixPermissions] as? Int == 0o700)
        try store.remove(name("a.b"))
        try store.remove(name("a.b")) // nothing to remove is fine
        #expect(try store.secret(name("a.b")) == nil)
    }

    @Test func aFileOthersCanReadOrASymlinkIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: home.root) }
        let store = FileCredentialStore(home: home)
        try store.store("secret", as: name("exposed"))
        let file = home.secretsURL.appendingPathComponent("exposed")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        #expect(throws: CredentialStoreError.self) { try store.secret(name("exposed")) }
        do {
            _ = try store.secret(name("exposed"))
        } catch let error as CredentialStoreError {
            #expect(error.exitStatus == .configuration && error.message.contains("can be read by other users"))
        }
        try FileManager.default.createSymbolicLink(
            atPath: home.secretsURL.appendingPathComponent("link").path, withDestinationPath: "/etc/hostname")
        #expect(throws: CredentialStoreError.self) { try store.secret(name("link")) }
    }

    @Test func aSecretInAFileMovesIntoTheSystemStoreOnFirstUse() throws {
        defer { try? FileManager.default.removeItem(at: home.root) }
        let files = FileCredentialStore(home: home)
        let system = InMemoryCredentialStore(backend: .secretService)
        try files.store("from-the-file", as: name("search.github-token"))
        let moving = MovingCredentialStore(system: system, files: files)
        #expect(moving.backend == .secretService)
        #expect(try moving.secret(name("search.github-token")) == "from-the-file")
        #expect(try system.secret(name("search.github-token")) == "from-the-file")
        #expect(try files.secret(name("search.github-token")) == nil)
        #expect(!FileManager.default.fileExists(atPath: home.secretsURL.appendingPathComponent("search.github-token").path))
        // What is written goes to the system's store only.
        try moving.store("new", as: name("other"))
        #expect(try files.secret(name("other")) == nil && system.secret(name("other")) == "new")
    }

    #if os(Linux)
        // On macOS the Keychain is the system's store whatever the environment: no test writes to it.
        @Test func theChoiceFollowsTheVariable() throws {
            let noBus = ["PATH": "/nonexistent"]
            #expect(try CredentialStores.select(home: home, environment: noBus).backend == .files)
            #expect(
                try CredentialStores.select(home: home, environment: noBus.merging(["MOA_CREDENTIAL_STORE": "files"]) { $1 }).backend
                    == .files)
            #expect {
                try CredentialStores.select(home: home, environment: ["MOA_CREDENTIAL_STORE": "keyring"])
            } throws: { error in
                (error as? CredentialStoreError)?.exitStatus == .configuration
            }
            // `system` with none: every use fails with 69, and nothing goes to a file instead.
            let required = try CredentialStores.select(home: home, environment: noBus.merging(["MOA_CREDENTIAL_STORE": "system"]) { $1 })
            #expect {
                try required.store("x", as: name("a"))
            } throws: { error in
                (error as? CredentialStoreError)?.exitStatus == .unavailable
            }
            #expect(!FileManager.default.fileExists(atPath: home.secretsURL.path))
        }
    #endif

    @Test(
        "the Secret Service keeps, reads and forgets a secret, per home",
        .enabled(if: ProcessInfo.processInfo.environment["MOA_TEST_SECRET_SERVICE"] == "1"))
    func theSecretServiceForReal() throws {
        let environment = ProcessInfo.processInfo.environment
        let store = try CredentialStores.select(home: home, environment: environment.merging(["MOA_CREDENTIAL_STORE": "system"]) { $1 })
        #expect(store.backend == .secretService)
        let other = try CredentialStores.select(
            home: MoaHome(root: home.root.appendingPathComponent("other")), environment: environment)
        let secret = "ghp_keyringSECRET \"quoted\" $(not run) ✓"
        try store.store(secret, as: name("search.github-token"))
        #expect(try store.secret(name("search.github-token")) == secret)
        #expect(try other.secret(name("search.github-token")) == nil) // another home, another item
        try store.store("replaced", as: name("search.github-token"))
        #expect(try store.secret(name("search.github-token")) == "replaced")
        try store.remove(name("search.github-token"))
        #expect(try store.secret(name("search.github-token")) == nil)
        #expect(!FileManager.default.fileExists(atPath: home.secretsURL.path))
    }
}
