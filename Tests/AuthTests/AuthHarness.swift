import AuthData
import AuthDomain
import AuthInterface
import Foundation
import InboxInterface
import InboxTesting
import Persistence
import Registry
import SharedKit
import Storage
import Synchronization

/// A fast password hasher for use-case tests: versioned, so re-hashing can be observed.
final class FakeHasher: PasswordHasher {
    let version: Int
    private let verifications = Atomic<Int>(0)
    /// Runs during each verification (what another server process might do meanwhile).
    let duringVerification = Locked<(@Sendable () -> Void)?>(nil)
    init(version: Int = 2) { self.version = version }

    /// How many verifications ran (unknown addresses must cost one too).
    var verificationCount: Int { verifications.load(ordering: .relaxed) }

    func hash(_ password: String) throws -> String { "fake-v\(version)$" + String(password.reversed()) }
    func verify(_ password: String, against stored: String) -> Bool {
        verifications.add(1, ordering: .relaxed)
        duringVerification.withLock { $0 }?()
        guard let dollar = stored.firstIndex(of: "$") else { return false }
        return String(stored[stored.index(after: dollar)...].reversed()) == password
    }
    func needsRehash(_ stored: String) -> Bool { !stored.hasPrefix("fake-v\(version)$") }
    func verifyAgainstNothing(_ password: String) { verifications.add(1, ordering: .relaxed) }
}

/// Captures mail instead of writing files; the code can be read back like a person would.
final class CapturingMail: MailSender {
    private let sent = Locked<[Mail]>([])
    var mails: [Mail] { sent.withLock { $0 } }

    func send(_ mail: Mail) async throws -> String {
        sent.withLock { $0.append(mail) }
        return "memory://outbox/\(mails.count)"
    }

    /// The 6-digit code of the last mail to `email`.
    func lastCode(to email: String) -> String? {
        guard let body = mails.last(where: { $0.to == email })?.body else { return nil }
        return body.components(separatedBy: CharacterSet.decimalDigits.inverted).first { $0.count == 6 }
    }
}

/// The session file, in memory.
final class MemorySessionStore: SessionStore {
    private let stored = Locked<StoredSession?>(nil)
    var current: StoredSession? { stored.withLock { $0 } }
    func load() throws -> StoredSession? { current }
    func save(_ session: StoredSession) throws { stored.withLock { $0 = session } }
    func clear() throws { stored.withLock { $0 = nil } }
}

/// A client address, as a server's request has one.
struct FixedOrigin: ClientOrigin {
    let address: String
    func client() -> String { address }
}

/// Everything Auth's use cases need, real where it is cheap (SQLite in memory, real secrets).
struct AuthHarness {
    let database: AppDatabase
    let repository: SQLiteAuthStore
    let hasher: FakeHasher
    let mail = CapturingMail()
    let store = MemorySessionStore()
    let clock = ManualWallClock()
    let secrets = RandomSecretGenerator()
    let registration: Registration
    let sessions: SessionManager
    /// Notices Auth published (new login, token reuse, password changed, lockouts, PIN removal).
    let inbox = FakeInboxPublisher()
    let passwordReset: PasswordReset

    static let password = "correct horse battery staple 42"

    init(hasher: FakeHasher = FakeHasher()) throws {
        database = try AppDatabase.inMemory(migrations: [AuthMigrations.all])
        repository = SQLiteAuthStore(database: database)
        self.hasher = hasher
        registration = Registration(repository: repository, hasher: hasher, secrets: secrets, mail: mail, clock: clock)
        sessions = SessionManager(repository: repository, hasher: hasher, secrets: secrets, store: store, clock: clock, inbox: inbox)
        passwordReset = PasswordReset(repository: repository, hasher: hasher, secrets: secrets, mail: mail, clock: clock, inbox: inbox)
    }

    /// Account deletion with these features' owners, in this database's unit of work.
    func deletion(owners: [any UserDataOwner]) -> AccountDeletion {
        AccountDeletion(sessions: sessions, repository: repository, store: store, unitOfWork: database, owners: owners)
    }

    /// Signs up and verifies `email`, as the commands would.
    func verifiedUser(_ email: String = "ada@example.com") async throws {
        _ = try await registration.signUp(email: email, password: Self.password)
        try await registration.verify(email: email, code: mail.lastCode(to: email) ?? "", password: Self.password)
    }

    /// The token use cases as a server runs them for requests from `client`.
    func tokens(from client: String) -> SessionTokens {
        SessionTokens(
            repository: repository, hasher: hasher, secrets: secrets, clock: clock, inbox: inbox, origin: FixedOrigin(address: client))
    }

    /// Sign-up and verification for requests from `client`.
    func registration(from client: String) -> Registration {
        Registration(
            repository: repository, hasher: hasher, secrets: secrets, mail: mail, clock: clock, origin: FixedOrigin(address: client))
    }

    /// What the other features give Auth's modules besides Core's (`ModuleOf.core`): Inbox's publisher
    /// (a fake) and the App's list of `UserDataOwner`s (none).
    static func otherFeatures(inbox: FakeInboxPublisher = FakeInboxPublisher(), owners: [any UserDataOwner] = []) -> ModuleOf {
        ModuleOf(
            "Other features",
            [
                .instance(InboxPublisherKey.self, inbox),
                .instance(UserDataOwnersKey.self, owners),
            ])
    }

    /// Locks the throttle `key` until `until` behind the use cases' back, as another server process would.
    func locking(_ key: String, until: Date) -> @Sendable () -> Void {
        let database = database
        return {
            _ = try? database.write { db in
                try db.execute(
                    sql: "INSERT INTO auth_throttles (email, failures, window_start, locked_until, lockouts) VALUES (?, 0, NULL, ?, 1)",
                    arguments: [key, until])
            }
        }
    }

    func count(_ sql: String) throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: sql) ?? -1 }
    }
}
