import AuthData
import AuthDomain
import AuthInterface
import Foundation
import GRDB
import InboxInterface
import InboxTesting
import Persistence
import Registry
import SharedKit
import Storage
import Testing

// AuthData against real I/O: a temporary SQLite database, temporary folders, real scrypt.

/// Cheap scrypt parameters for tests (N = 2^10); only `defaultParametersAreOWASPAndSelfDescribing` pays for the real ones.
private let cheap = ScryptParameters(logN: 10, blockSize: 8, parallelism: 1)
private let start = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01T00:00:00Z

private func makeRepository() throws -> (SQLiteAuthStore, AppDatabase) {
    let database = try AppDatabase.temporary(migrations: [AuthMigrations.all])
    return (SQLiteAuthStore(database: database), database)
}

private func user(_ id: String, _ email: String, verified: Date? = nil) -> UserRecord {
    UserRecord(id: UserID(id), email: email, passwordHash: "$scrypt$hash-of-\(id)", createdAt: start, verifiedAt: verified)
}

private func verification(_ id: String, digest: String = "code-digest", attempts: Int = 0) -> VerificationRecord {
    VerificationRecord(userID: UserID(id), codeDigest: digest, expiresAt: start.addingTimeInterval(600), attempts: attempts)
}

private func session(_ id: String, family: String, user: String, at date: Date = start) -> SessionRecord {
    SessionRecord(
        id: id, familyID: family, userID: UserID(user), accessDigest: "access-\(id)", accessExpiresAt: date.addingTimeInterval(900),
        refreshDigest: "refresh-\(id)", refreshExpiresAt: date.addingTimeInterval(14 * 86_400), createdAt: date)
}

/// A fresh folder under the system's temporary directory, removed on release.
private final class Scratch: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("moa-authdata-\(UUID().uuidString.lowercased())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

private func mode(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

// MARK: - Repository

// What every engine's store must do is in StoreContractTests (AuthStoreContractTests); here, only
// what is SQLite's own: migrating old rows, and how rows and dates are stored.
@Suite("AuthData · SQLite repository")
struct AuthDataRepositoryTests {
    @Test func sessionDatesAreStoredSoThatSQLiteComparesAndOrdersThem() async throws {
        let (repository, database) = try makeRepository()
        try await repository.createUser(user("u1", "ada@example.com"), verification: verification("u1"))
        try await repository.insertSession(session("s1", family: "f1", user: "u1"))
        try await repository.insertSession(session("s2", family: "f2", user: "u1", at: start.addingTimeInterval(3600)))

        let order = try database.read { try String.fetchAll($0, sql: "SELECT id FROM auth_sessions ORDER BY access_expires_at DESC") }
        #expect(order == ["s2", "s1"])
        let live = try database.read {
            try Int.fetchOne(
                $0, sql: "SELECT COUNT(*) FROM auth_sessions WHERE access_expires_at > ?", arguments: [start.addingTimeInterval(1000)])
        }
        #expect(live == 1)
    }

    @Test func addressesStoredBeforeCanonicalFormsAreMigratedWithoutMergingAccounts() async throws {
        let scratch = try Scratch()
        let url = scratch.url.appendingPathComponent("moa.sqlite")
        let before = MigrationSet(feature: "Auth", steps: AuthMigrations.all.steps.filter { $0.name != "v3-canonical-emails" })
        do {
            let old = try AppDatabase.open(at: url, migrations: [before])
            let repository = SQLiteAuthStore(database: old)
            try await repository.createUser(user("u1", "Ada.Lovelace@example.com"), verification: verification("u1"))
            try await repository.createUser(user("u2", "ａｄａ.lovelace@example.com"), verification: verification("u2", digest: "d2"))
            try await repository.createUser(user("u3", "ＢＯＢ@example.com"), verification: verification("u3", digest: "d3"))
            let locked = ThrottleState(failures: 0, windowStart: nil, lockedUntil: start.addingTimeInterval(60), lockouts: 1)
            let two = ThrottleState(failures: 2, windowStart: start, lockedUntil: nil, lockouts: 0)
            let three = ThrottleState(failures: 3, windowStart: start, lockedUntil: nil, lockouts: 0)
            _ = try await repository.updateThrottle(for: "bob@example.com") { _ in locked }
            _ = try await repository.updateThrottle(for: "ｂｏｂ@example.com") { _ in two }
            _ = try await repository.updateThrottle(for: "ｃｙ@example.com") { _ in three }
        }

        let migrated = try AppDatabase.open(at: url, migrations: [AuthMigrations.all])
        let repository = SQLiteAuthStore(database: migrated)
        #expect(try migrated.appliedMigrations().last == "Auth/v3-canonical-emails")
        #expect(try await repository.user(id: UserID("u1"))?.email == "ada.lovelace@example.com")
        #expect(
            try await repository.user(id: UserID("u2"))?.email == "ａｄａ.lovelace@example.com",
            "a look-alike of an older account keeps its old form: the accounts are not merged")
        #expect(try await repository.user(id: UserID("u3"))?.email == "bob@example.com")
        #expect(try await repository.user(email: "ada.lovelace@example.com")?.id == UserID("u1"), "the address reaches the older account")
        #expect(try await repository.throttle(for: "bob@example.com").lockouts == 1, "the canonical throttle stays")
        #expect(try await repository.throttle(for: "cy@example.com").failures == 3)
        #expect(try migrated.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM auth_throttles") } == 2)
    }

    @Test func securityEventsAreRecordedInOrder() async throws {
        let (repository, database) = try makeRepository()
        try await repository.record(SecurityEvent(userID: nil, email: "ghost@example.com", kind: .loginLockout, at: start))
        try await repository.record(
            SecurityEvent(userID: UserID("u1"), email: "ada@example.com", kind: .refreshTokenReuse, at: start.addingTimeInterval(5)))

        let rows = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT user_id, email, kind, at FROM auth_security_events ORDER BY id")
                .map { [$0["user_id"] as String?, $0["email"] as String?, $0["kind"] as String?] }
        }
        #expect(rows == [[nil, "ghost@example.com", "login-lockout"], ["u1", "ada@example.com", "refresh-token-reuse"]])
        let latest = try database.read { try Date.fetchOne($0, sql: "SELECT MAX(at) FROM auth_security_events") }
        #expect(latest == start.addingTimeInterval(5))
    }
}

// MARK: - Password hashing

@Suite("AuthData · scrypt")
struct AuthDataHasherTests {
    @Test func defaultParametersAreOWASPAndSelfDescribing() throws {
        let hasher = ScryptPasswordHasher()
        #expect(hasher.parameters == ScryptParameters(logN: 17, blockSize: 8, parallelism: 1, saltByteCount: 16, keyByteCount: 32))
        let stored = try hasher.hash("correct horse staple battery")
        #expect(stored.hasPrefix("$scrypt$ln=17,r=8,p=1$"))
        let parts = stored.split(separator: "$")
        #expect(parts.count == 4)
        #expect(Data(base64Encoded: String(parts[2]))?.count == 16)
        #expect(Data(base64Encoded: String(parts[3]))?.count == 32)
        #expect(!hasher.needsRehash(stored))
    }

    @Test func theRightPasswordVerifiesAndAWrongOneDoesNot() throws {
        let hasher = ScryptPasswordHasher(parameters: cheap)
        let stored = try hasher.hash("correct horse staple battery")
        #expect(stored.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        #expect(!stored.contains("correct horse"))
        #expect(hasher.verify("correct horse staple battery", against: stored))
        #expect(!hasher.verify("correct horse staple batterY", against: stored))
        #expect(!hasher.verify("", against: stored))
        // A hasher with other current parameters still verifies with the stored ones.
        #expect(
            ScryptPasswordHasher(parameters: ScryptParameters(logN: 11, blockSize: 8, parallelism: 1)).verify(
                "correct horse staple battery", against: stored))
    }

    @Test func everyHashHasItsOwnSalt() throws {
        let hasher = ScryptPasswordHasher(parameters: cheap)
        let first = try hasher.hash("the same password twice")
        let second = try hasher.hash("the same password twice")
        #expect(first != second)
        #expect(first.split(separator: "$")[2] != second.split(separator: "$")[2])
        #expect(hasher.verify("the same password twice", against: first) && hasher.verify("the same password twice", against: second))
    }

    @Test func weakerOrMalformedStoredHashesNeedARehash() throws {
        let current = ScryptPasswordHasher(parameters: ScryptParameters(logN: 11, blockSize: 8, parallelism: 1))
        let weak = try ScryptPasswordHasher(parameters: cheap).hash("a password of some length")
        #expect(current.needsRehash(weak))
        #expect(!current.needsRehash(try current.hash("a password of some length")))
        #expect(!ScryptPasswordHasher(parameters: cheap).needsRehash(try current.hash("a password of some length")))
        #expect(
            current.needsRehash(try ScryptPasswordHasher(parameters: ScryptParameters(logN: 11, blockSize: 4, parallelism: 1)).hash("x")))
        #expect(current.needsRehash("not a hash"))
        #expect(ScryptPasswordHasher().needsRehash(weak))
    }

    @Test(arguments: [
        "", "plain", "$scrypt$", "$scrypt$ln=10,r=8,p=1$c2FsdA==", "$bcrypt$ln=10,r=8,p=1$c2FsdHNhbHRzYWx0$a2V5",
        "$scrypt$ln=10,r=8$c2FsdHNhbHRzYWx0c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U=",
        "$scrypt$ln=10,r=8,p=1,p=1$c2FsdHNhbHRzYWx0c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U=",
        "$scrypt$ln=x,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U=",
        "$scrypt$ln=10,r=8,p=1$not base64!$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U=",
        "$scrypt$ln=40,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U=", // absurd cost
        "$scrypt$ln=10,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U=$",
    ])
    func aMalformedStoredHashNeverVerifies(stored: String) {
        let hasher = ScryptPasswordHasher(parameters: cheap)
        #expect(!hasher.verify("correct horse staple battery", against: stored))
        #expect(hasher.needsRehash(stored))
    }

    @Test func verifyingAgainstNothingSpendsTheWorkAndReturns() {
        ScryptPasswordHasher(parameters: cheap).verifyAgainstNothing("whatever was typed")
        ScryptPasswordHasher(parameters: cheap).verifyAgainstNothing("")
    }

    @Test func impossibleParametersFailWithAClearMessage() {
        let hasher = ScryptPasswordHasher(parameters: ScryptParameters(logN: 10, blockSize: 0, parallelism: 1))
        #expect {
            _ = try hasher.hash("a password that is long enough")
        } throws: { error in
            guard let error = error as? PasswordHashingError else { return false }
            return error.message.hasPrefix("Hashing the password with scrypt (ln=10,r=0,p=1) failed")
                && !error.message.contains("long enough")
        }
    }
}

// MARK: - Secrets

@Suite("AuthData · secrets")
struct AuthDataSecretTests {
    private let secrets = RandomSecretGenerator()

    @Test func tokensAre256BitBase64URLAndUnique() {
        let tokens = (0..<200).map { _ in secrets.token() }
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for token in tokens {
            #expect(token.count == 43) // 32 bytes, no padding
            #expect(token.allSatisfy(alphabet.contains))
        }
        #expect(Set(tokens).count == tokens.count)
    }

    @Test func codesAreSixDigitsAndVary() {
        let codes = (0..<500).map { _ in secrets.verificationCode() }
        for code in codes {
            #expect(code.count == 6 && code.allSatisfy { ("0"..."9").contains($0) })
        }
        #expect(Set(codes).count > 400)
        #expect(Set(codes.map(\.first)).count > 5) // the first digit is not stuck (zero-padding keeps leading zeros)
    }

    @Test func identifiersAreLowercaseUUIDs() {
        let id = secrets.identifier()
        #expect(UUID(uuidString: id) != nil && id == id.lowercased())
        #expect(secrets.identifier() != id)
    }

    @Test func digestsAreStableSHA256Hex() {
        #expect(secrets.digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(secrets.digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let token = secrets.token()
        #expect(secrets.digest(token) == secrets.digest(token))
        #expect(secrets.digest(token).count == 64 && secrets.digest(token).allSatisfy(\.isHexDigit))
    }
}

// MARK: - Outbox

@Suite("AuthData · outbox")
struct AuthDataOutboxTests {
    @Test func aMailBecomesAnOwnerOnlyEMLFileWithHeadersAndCRLF() async throws {
        let scratch = try Scratch()
        let outbox = scratch.url.appendingPathComponent("home/outbox")
        let sender = OutboxMailSender(folder: outbox, clock: ManualWallClock(start))
        let mail = Mail(
            to: "ada@example.com", subject: "Your Moa verification code: 042917",
            body: "Your verification code is 042917.\n\n    moa auth verify --email ada@example.com --code 042917\n",
            purpose: .verification)

        let path = try await sender.send(mail)
        let name = URL(fileURLWithPath: path).lastPathComponent
        #expect(path == outbox.appendingPathComponent(name).path)
        #expect(name.hasPrefix("20260101-000000-") && name.hasSuffix("-verify.eml"))
        #expect(!name.contains("042917"))
        #expect(try mode(of: path) == 0o600)
        #expect(try mode(of: outbox.path) == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outbox.path) == [name]) // no temporary left

        let text = try String(contentsOfFile: path, encoding: .utf8)
        for header in [
            "From: Moa <no-reply@moa.local>", "To: ada@example.com", "Subject: Your Moa verification code: 042917",
            "Date: Thu, 01 Jan 2026 00:00:00 +0000", "MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit",
        ] {
            #expect(text.contains(header + "\r\n"), "missing \(header)")
        }
        #expect(text.range(of: #"Message-ID: <[0-9a-f-]+@moa\.local>\r\n"#, options: .regularExpression) != nil)
        #expect(text.contains("\r\n\r\nYour verification code is 042917.\r\n"))
        let bytes = Array(text.utf8)
        let bareLineFeeds = bytes.indices.filter { bytes[$0] == 0x0A && ($0 == 0 || bytes[$0 - 1] != 0x0D) }
        #expect(bareLineFeeds.isEmpty)
    }

    @Test func filesSortByTimeAndNeverCollide() async throws {
        let scratch = try Scratch()
        let clock = ManualWallClock(start)
        let sender = OutboxMailSender(folder: scratch.url, clock: clock)
        var paths: [String] = []
        for _ in 0..<3 {
            paths.append(try await sender.send(Mail(to: "ada@example.com", subject: "Hello", body: "Hi")))
            clock.advance(by: 61)
        }
        let names = paths.map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(names == names.sorted())
        #expect(names.allSatisfy { $0.hasSuffix("-mail.eml") })
        let sameSecond = try await (0..<5).asyncMap { _ in try await sender.send(Mail(to: "a@example.com", subject: "x", body: "y")) }
        #expect(Set(sameSecond).count == 5)
    }

    @Test func aNonASCIISubjectIsRFC2047EncodedAndHeadersCannotBeInjected() async throws {
        let scratch = try Scratch()
        let sender = OutboxMailSender(folder: scratch.url, clock: ManualWallClock(start))
        let subject = "모아 인증 코드 — 인증 코드를 입력하세요, 그리고 이 제목은 꽤 깁니다"
        let path = try await sender.send(Mail(to: "ada@example.com\r\nBcc: eve@example.com", subject: subject, body: "본문"))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let head = String(text[..<(text.range(of: "\r\n\r\n")?.lowerBound ?? text.endIndex)])

        #expect(!head.contains("\r\nBcc:"))
        #expect(head.unicodeScalars.allSatisfy { $0.isASCII })
        let words = head.matches(of: /=\?utf-8\?B\?([A-Za-z0-9+\/=]+)\?=/)
        #expect(words.count > 1)
        #expect(words.allSatisfy { $0.output.0.count <= 75 })
        let decoded = words.compactMap { Data(base64Encoded: String($0.output.1)) }.map { String(decoding: $0, as: UTF8.self) }.joined()
        #expect(decoded == subject)
        #expect(text.hasSuffix("\r\n\r\n본문\r\n"))
    }

    @Test func anUnwritableOutboxIsAnIOErrorNamingTheFolder() async throws {
        let scratch = try Scratch()
        let blocker = scratch.url.appendingPathComponent("outbox")
        try Data("not a folder".utf8).write(to: blocker)
        let sender = OutboxMailSender(folder: blocker, clock: ManualWallClock(start))
        do {
            _ = try await sender.send(Mail(to: "ada@example.com", subject: "code 123456", body: "code 123456"))
            Issue.record("the mail was sent into a file")
        } catch let error as OutboxError {
            #expect(error.exitStatus == .ioError)
            #expect(error.message.contains(blocker.path))
            #expect(!error.message.contains("123456"))
        }
    }
}

// MARK: - Session file

@Suite("AuthData · session file")
struct AuthDataSessionStoreTests {
    private let stored = StoredSession(
        userID: UserID("u1"), email: "ada@example.com", accessToken: "access-secret-token",
        refreshToken: "refresh-secret-token", accessExpiresAt: start.addingTimeInterval(900.25),
        refreshExpiresAt: start.addingTimeInterval(14 * 86_400))

    @Test func aSavedSessionIsOwnerOnlyAndLoadsEqual() throws {
        let scratch = try Scratch()
        let store = FileSessionStore(url: scratch.url.appendingPathComponent("session.json"))
        #expect(try store.load() == nil)
        try store.save(stored)
        #expect(try mode(of: store.url.path) == 0o600)
        #expect(try store.load() == stored)
        let json = try String(contentsOf: store.url, encoding: .utf8)
        #expect(json.contains("2026-01-01T00:15:00.250Z"))
    }

    @Test func savingReplacesAnExposedFileWithAnOwnerOnlyOne() throws {
        let scratch = try Scratch()
        let store = FileSessionStore(url: scratch.url.appendingPathComponent("session.json"))
        try Data("{}".utf8).write(to: store.url)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store.url.path)
        try store.save(stored)
        #expect(try mode(of: store.url.path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["session.json"])
    }

    @Test(arguments: [0o644, 0o640, 0o604, 0o660])
    func aFileOthersCanReadIsRefused(permissions: Int) throws {
        let scratch = try Scratch()
        let store = FileSessionStore(url: scratch.url.appendingPathComponent("session.json"))
        try store.save(stored)
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: store.url.path)
        #expect(throws: AuthError.sessionFileExposed(path: store.url.path)) { try store.load() }
    }

    @Test func aCorruptFileIsUnreadableWithoutQuotingIt() throws {
        let scratch = try Scratch()
        let store = FileSessionStore(url: scratch.url.appendingPathComponent("session.json"))
        try store.save(stored)
        let corrupt = try String(contentsOf: store.url, encoding: .utf8).replacingOccurrences(of: "\"userID\"", with: "\"user\"")
        try store.save(stored) // keep 0600 while corrupting the content
        try Data(corrupt.utf8).write(to: store.url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: store.url.path)
        do {
            _ = try store.load()
            Issue.record("a corrupt session file loaded")
        } catch let error as AuthError {
            guard case .sessionFileUnreadable(let path, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == store.url.path)
            #expect(!error.message.contains("secret-token"))
        }
        try Data("not json secret-token".utf8).write(to: store.url)
        #expect(throws: AuthError.sessionFileUnreadable(path: store.url.path, reason: "it is not a valid session file")) {
            try store.load()
        }
    }

    @Test func clearingRemovesTheFileAndToleratesItsAbsence() throws {
        let scratch = try Scratch()
        let store = FileSessionStore(url: scratch.url.appendingPathComponent("session.json"))
        try store.save(stored)
        try store.clear()
        #expect(!FileManager.default.fileExists(atPath: store.url.path))
        #expect(try store.load() == nil)
        try store.clear()
    }

    @Test func withASystemStoreTheTokensLeaveTheFile() throws {
        let scratch = try Scratch()
        let credentials = InMemoryCredentialStore(backend: .secretService)
        let store = FileSessionStore(url: scratch.url.appendingPathComponent("session.json"), credentials: credentials)
        try store.save(stored)
        let json = try String(contentsOf: store.url, encoding: .utf8)
        #expect(!json.contains(stored.accessToken) && !json.contains(stored.refreshToken))
        #expect(json.contains("ada@example.com") && json.contains("credential-store"))
        #expect(credentials.names == ["session.tokens"])
        #expect(try store.load() == stored)
        // The tokens gone from the store: no session (not a session without tokens).
        try credentials.remove(#require(CredentialName("session.tokens")))
        #expect(try store.load() == nil)
        try store.save(stored)
        try store.clear()
        #expect(credentials.names.isEmpty)
    }

    @Test func tokensStillInTheFileMoveIntoTheSystemStoreOnLoad() throws {
        let scratch = try Scratch()
        let url = scratch.url.appendingPathComponent("session.json")
        try FileSessionStore(url: url).save(stored)
        #expect(try String(contentsOf: url, encoding: .utf8).contains(stored.refreshToken))
        let credentials = InMemoryCredentialStore(backend: .secretService)
        let store = FileSessionStore(url: url, credentials: credentials)
        #expect(try store.load() == stored)
        #expect(try !String(contentsOf: url, encoding: .utf8).contains(stored.refreshToken))
        #expect(try mode(of: url.path) == 0o600)
        #expect(credentials.names == ["session.tokens"])
        #expect(try store.load() == stored)
    }
}

// MARK: - Composition

private struct AuthServices: Sendable {
    let provider: any SessionProvider
    let manager: SessionManager
    let registration: any RegistrationUseCases
}

private enum AuthServicesKey: ServiceKey {
    typealias Service = AuthServices
}

@Suite("AuthData · module")
struct AuthDataModuleTests {
    private func core(_ database: AppDatabase, _ home: MoaHome, _ clock: ManualWallClock) -> ModuleOf {
        ModuleOf.core(
            database: database, clock: clock, home: home,
            extra: [
                .instance(InboxPublisherKey.self, FakeInboxPublisher()), // Inbox's, in the app
                .instance(UserDataOwnersKey.self, []), // the App's list
            ])
    }

    @Test func theModuleWithCoreValidatesForTheSessionProvider() throws {
        let scratch = try Scratch()
        let database = try AppDatabase.temporary(migrations: [AuthMigrations.all])
        let modules: [any FeatureModule] = [AuthDataModule(), core(database, MoaHome(root: scratch.url), ManualWallClock(start))]
        let registry = try RegistryBuilder(modules: modules).validate(root: SessionProviderKey.self)
        #expect(registry.resolve() is SessionManager)
        #expect(
            Set(AuthDataModule().requires.map(\.name))
                == [
                    "DatabaseKey", "MoaHomeKey", "WallClockKey", "UnitOfWorkKey", "CredentialStoreKey", "InboxPublisherKey",
                    "UserDataOwnersKey",
                ])
    }

    @Test func signUpVerifyAndLogInThroughTheComposedServices() async throws {
        let scratch = try Scratch()
        let home = MoaHome(root: scratch.url)
        let database = try AppDatabase.temporary(migrations: [AuthMigrations.all])
        let clock = ManualWallClock(start)
        let services = ModuleOf(
            "Test",
            [
                .singleton(AuthServicesKey.self, requires: SessionProviderKey.self, SessionManagerKey.self, RegistrationKey.self) {
                    AuthServices(provider: $0, manager: $1, registration: $2)
                }
            ])
        let registry = try RegistryBuilder(modules: [AuthDataModule(), core(database, home, clock), services])
            .validate(root: AuthServicesKey.self)
            .overriding { $0.replace(.singleton(PasswordHasherKey.self) { ScryptPasswordHasher(parameters: cheap) }) }
        let auth = registry.resolve()
        #expect((auth.provider as? SessionManager) === auth.manager)

        let sent = try await auth.registration.signUp(email: "ada@example.com", password: "a long and unusual passphrase")
        let location = try #require(sent.location)
        #expect(location.hasPrefix(home.outboxURL.path))
        let mail = try String(contentsOfFile: location, encoding: .utf8)
        let code = try #require(mail.firstMatch(of: /code is (\d{6})/)).output.1
        try await auth.registration.verify(email: "ada@example.com", code: String(code), password: "a long and unusual passphrase")

        let user = try await auth.manager.logIn(email: "Ada@example.com", password: "a long and unusual passphrase")
        #expect(user.email == "ada@example.com")
        #expect(try mode(of: home.sessionURL.path) == 0o600)
        #expect(try await auth.provider.currentUser() == user)

        clock.advance(by: 16 * 60) // the access token expired: the provider refreshes transparently
        #expect(try await auth.provider.currentUser() == user)
        let families = try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(DISTINCT family_id) FROM auth_sessions") }
        let generations = try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM auth_sessions") }
        #expect(families == 1 && generations == 2)

        #expect(try await auth.manager.logOut(everywhere: false) == user)
        #expect(try await auth.provider.currentUser() == nil)
    }
}

extension Sequence {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
