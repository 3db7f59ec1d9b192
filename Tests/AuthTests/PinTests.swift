import AuthData
import AuthDomain
import AuthFeature
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import GRDB
import InboxInterface
import Persistence
import Registry
import SharedKit
import Storage
import Testing

// Quick unlock with a PIN: its rules, its storage, and the interactive mode's unlock prompt.

/// Cheap scrypt for PIN tests (the app uses the OWASP parameters).
private let cheapScrypt = ScryptParameters(logN: 10, blockSize: 8, parallelism: 1)
private let goodPin = "482913"
private let otherPin = "605172"

/// Auth with PINs on one database: a use-case harness plus the PIN service.
private struct PinHarness {
    let auth: AuthHarness
    let pins: SQLitePinStore
    let service: PinService

    init() throws {
        auth = try AuthHarness()
        pins = SQLitePinStore(database: auth.database)
        service = PinService(
            pins: pins, hasher: auth.hasher, sessions: auth.sessions, events: auth.repository, clock: auth.clock, inbox: auth.inbox)
    }

    /// The same service, publishing through `inbox`.
    func service(inbox: any InboxPublisher) -> PinService {
        PinService(pins: pins, hasher: auth.hasher, sessions: auth.sessions, events: auth.repository, clock: auth.clock, inbox: inbox)
    }

    func notices(_ kind: InboxNoticeKind) -> [InboxNotice] {
        auth.inbox.notices.filter { $0.kind == kind }
    }

    /// A verified, logged-in user with `pin` (when given) set.
    @discardableResult
    func loggedIn(pin: String? = goodPin) async throws -> AuthenticatedUser {
        try await auth.verifiedUser()
        let user = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        if let pin { _ = try await service.setPin(pin, repeated: pin) }
        return user
    }

    func failures() throws -> Int {
        try auth.count("SELECT COALESCE(MAX(failures), -1) FROM auth_pins")
    }

    func events(_ kind: String) throws -> Int {
        try auth.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM auth_security_events WHERE kind = ?", arguments: [kind]) ?? -1
        }
    }
}

/// The interactive screen's terminal: scripted answers, captured output (not a TTY).
private func makeScreen(_ answers: [String]) -> (Screen, CapturingOutput) {
    let output = CapturingOutput()
    return (Screen(context: CommandContext(out: output, err: output), input: ScriptedLineInput(answers)), output)
}

@Suite("Auth: PIN rules")
struct PinRuleTests {
    @Test(arguments: ["482913", "135790", "204867", "112233", "123457", "135246 ", " 650917\r"])
    func acceptableSixDigitPins(pin: String) throws {
        #expect(try PinPolicy().check(pin) == pin.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test(arguments: [
        ("", PinError.wrongLength(6), "A PIN is exactly 6 digits long."),
        ("48291", .wrongLength(6), "A PIN is exactly 6 digits long."),
        ("4829135", .wrongLength(6), "A PIN is exactly 6 digits long."),
        ("48a913", .notDigits, "A PIN is made of the digits 0 to 9 only."),
        ("48 913", .notDigits, "A PIN is made of the digits 0 to 9 only."),
        ("４８２９１３", .notDigits, "A PIN is made of the digits 0 to 9 only."), // fullwidth digits
        ("٤٨٢٩١٣", .notDigits, "A PIN is made of the digits 0 to 9 only."), // Arabic-Indic digits
        ("000000", .repeatedDigit, "The PIN must not be one digit repeated (like 111111)."),
        ("777777", .repeatedDigit, "The PIN must not be one digit repeated (like 111111)."),
        ("123456", .sequential, "The PIN must not be a run of consecutive digits (like 123456, 987654 or 890123)."),
        ("987654", .sequential, "The PIN must not be a run of consecutive digits (like 123456, 987654 or 890123)."),
        ("012345", .sequential, "The PIN must not be a run of consecutive digits (like 123456, 987654 or 890123)."),
        ("890123", .sequential, "The PIN must not be a run of consecutive digits (like 123456, 987654 or 890123)."),
        ("901234", .sequential, "The PIN must not be a run of consecutive digits (like 123456, 987654 or 890123)."),
        ("210987", .sequential, "The PIN must not be a run of consecutive digits (like 123456, 987654 or 890123)."),
    ])
    func refusedPinsSayWhichRuleTheyBreak(pin: String, error: PinError, message: String) {
        #expect(throws: error) { try PinPolicy().check(pin) }
        #expect(error.message == message)
        #expect(error.exitStatus == .dataError)
    }

    @Test func theTwoEntriesMustMatchAndNothingIsStoredOtherwise() async throws {
        let harness = try PinHarness()
        try await harness.loggedIn(pin: nil)
        await #expect(throws: PinError.mismatch) { try await harness.service.setPin(goodPin, repeated: otherPin) }
        #expect(PinError.mismatch.message == "The two PINs do not match.")
        await #expect(throws: PinError.sequential) { try await harness.service.setPin("123456", repeated: "123456") }
        #expect(try harness.auth.count("SELECT COUNT(*) FROM auth_pins") == 0)
        #expect(try await harness.service.status().isSet == false)
    }

    @Test func settingAPinNeedsALoggedInUser() async throws {
        let harness = try PinHarness()
        try await harness.auth.verifiedUser()
        await #expect(throws: NotLoggedInError()) { try await harness.service.setPin(goodPin, repeated: goodPin) }
        await #expect(throws: NotLoggedInError()) { try await harness.service.removePin(.pin(goodPin)) }
        await #expect(throws: NotLoggedInError()) { try await harness.service.status() }
        #expect(try harness.auth.count("SELECT COUNT(*) FROM auth_pins") == 0)
    }

    @Test func setChangeStatusAndRemoveAreRecorded() async throws {
        let harness = try PinHarness()
        let user = try await harness.loggedIn()
        #expect(try await harness.service.status() == PinStatus(user: user, isSet: true, wrongAttempts: 0, triesLeft: 5))
        _ = try await harness.service.setPin(otherPin, repeated: " \(otherPin)") // a change replaces the PIN
        #expect(try await harness.service.unlock(pin: goodPin) == .wrongPin(triesLeft: 4))
        #expect(try await harness.service.unlock(pin: otherPin) == .unlocked(user))
        #expect(try harness.events("pin-set") == 2)

        let removed = try await harness.service.removePin(.pin(otherPin))
        #expect(removed.removed && removed.user == user)
        #expect(try await harness.service.removePin(nil).removed == false, "without a PIN nothing is asked")
        #expect(try harness.events("pin-removed") == 1)
        #expect(try await harness.service.unlockState() == .notNeeded)
    }
}

@Suite("AuthData · PIN storage")
struct PinStorageTests {
    @Test func thePinIsStoredAsAnScryptHashWithItsOwnSaltAndVerifies() async throws {
        let database = try AppDatabase.temporary(migrations: [AuthMigrations.all])
        let hasher = ScryptPasswordHasher(parameters: cheapScrypt)
        let harness = try AuthHarness()
        let repository = SQLiteAuthStore(database: database)
        let sessions = SessionManager(
            repository: repository, hasher: hasher, secrets: harness.secrets, store: harness.store, clock: harness.clock)
        let registration = Registration(
            repository: repository, hasher: hasher, secrets: harness.secrets, mail: harness.mail, clock: harness.clock)
        let service = PinService(
            pins: SQLitePinStore(database: database), hasher: hasher, sessions: sessions,
            events: repository, clock: harness.clock)
        for email in ["ada@example.com", "bob@example.com"] {
            _ = try await registration.signUp(email: email, password: AuthHarness.password)
            try await registration.verify(email: email, code: harness.mail.lastCode(to: email) ?? "", password: AuthHarness.password)
            _ = try await sessions.logIn(email: email, password: AuthHarness.password)
            _ = try await service.setPin(goodPin, repeated: goodPin)
        }

        let stored = try database.read { try String.fetchAll($0, sql: "SELECT pin_hash FROM auth_pins ORDER BY user_id") }
        #expect(stored.count == 2)
        for hash in stored {
            #expect(hash.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
            #expect(!hash.contains(goodPin))
            #expect(hasher.verify(goodPin, against: hash))
            #expect(!hasher.verify(otherPin, against: hash))
        }
        #expect(stored[0] != stored[1], "the same PIN of two users hashes differently (own salt)")
        let bob = try #require(try await sessions.currentUser())
        #expect(bob.email == "bob@example.com")
        #expect(try await service.unlock(pin: goodPin) == .unlocked(bob))
    }

    @Test func removingTheUserRemovesTheirPin() async throws {
        let harness = try PinHarness()
        let user = try await harness.loggedIn()
        try await harness.auth.database.write { db in
            try db.execute(sql: "DELETE FROM auth_users WHERE id = ?", arguments: [user.id.rawValue])
        }
        #expect(try harness.auth.count("SELECT COUNT(*) FROM auth_pins") == 0)
    }

    @Test func theAuthModuleProvidesTheUnlockerForTheApp() throws {
        let database = try AppDatabase.inMemory(migrations: [AuthMigrations.all])
        let home = MoaHome(root: FileManager.default.temporaryDirectory.appendingPathComponent("moa-pin-\(UUID().uuidString)"))
        let registry = try RegistryBuilder(modules: [
            AuthDataModule(),
            ModuleOf.core(database: database, clock: ManualWallClock(), home: home),
            AuthHarness.otherFeatures(),
        ]).validate(root: SessionUnlockerKey.self)
        #expect(registry.resolve() is PinService)
    }
}

@Suite("Auth: unlocking with the PIN")
struct PinUnlockTests {
    @Test func withoutAPinNothingIsAsked() async throws {
        let harness = try PinHarness()
        try await harness.loggedIn(pin: nil)
        #expect(try await harness.service.unlockState() == .notNeeded)
        let (screen, output) = makeScreen([])
        #expect(await PinUnlockScreen.run(screen, harness.service))
        #expect(output.text.isEmpty, "no prompt at all")
    }

    @Test func nobodyLoggedInOrAnExpiredSessionAsksNothing() async throws {
        let harness = try PinHarness()
        let user = try await harness.loggedIn()
        harness.auth.clock.advance(by: 15 * 24 * 3600) // the refresh token has expired
        #expect(try await harness.service.unlockState() == .notNeeded)
        #expect(try await harness.auth.sessions.currentUser() == nil)
        #expect(try await harness.service.unlock(pin: goodPin) == .notLoggedIn)
        #expect(try harness.failures() == 0)
        _ = user
    }

    @Test func theRightPinUnlocks() async throws {
        let harness = try PinHarness()
        let user = try await harness.loggedIn()
        #expect(try await harness.service.unlockState() == .pinRequired(user, triesLeft: 5))
        #expect(try await harness.service.unlock(pin: goodPin) == .unlocked(user))
        #expect(try await harness.auth.sessions.currentUser() == user)
    }

    @Test func fourWrongThenTheRightOneResetsTheCount() async throws {
        let harness = try PinHarness()
        let user = try await harness.loggedIn()
        for left in [4, 3, 2, 1] {
            #expect(try await harness.service.unlock(pin: otherPin) == .wrongPin(triesLeft: left))
        }
        #expect(try await harness.service.unlockState() == .pinRequired(user, triesLeft: 1))
        #expect(try await harness.service.unlock(pin: goodPin) == .unlocked(user))
        #expect(try harness.failures() == 0)
        #expect(try await harness.service.unlockState() == .pinRequired(user, triesLeft: 5))
        #expect(try await harness.service.unlock(pin: otherPin) == .wrongPin(triesLeft: 4))
    }

    @Test func aPasswordLoginGivesThePinItsFiveTriesBack() async throws {
        let harness = try PinHarness()
        let user = try await harness.loggedIn()
        for _ in 1...3 { _ = try await harness.service.unlock(pin: otherPin) }
        #expect(try await harness.service.unlockState() == .pinRequired(user, triesLeft: 2))
        _ = try await harness.auth.sessions.logOut(everywhere: false)
        _ = try await harness.auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        #expect(try harness.failures() == 0)
        #expect(try await harness.service.unlockState() == .pinRequired(user, triesLeft: 5))
    }

    @Test func somethingThatCannotBeAPinIsNotCounted() async throws {
        let harness = try PinHarness()
        try await harness.loggedIn()
        await #expect(throws: PinError.wrongLength(6)) { try await harness.service.unlock(pin: "4829") }
        await #expect(throws: PinError.notDigits) { try await harness.service.unlock(pin: "48291x") }
        #expect(try harness.failures() == 0)
    }

    @Test func fiveWrongEndTheSessionAndThePasswordIsNeeded() async throws {
        let harness = try PinHarness()
        let user = try await harness.loggedIn()
        for _ in 1...4 { _ = try await harness.service.unlock(pin: otherPin) }
        #expect(try await harness.service.unlock(pin: otherPin) == .sessionEnded)

        #expect(try await harness.auth.sessions.currentUser() == nil)
        #expect(harness.auth.store.current == nil, "the session file is removed")
        #expect(try harness.auth.count("SELECT COUNT(*) FROM auth_sessions WHERE revoked_at IS NULL") == 0, "revoked like a logout")
        #expect(try harness.events("pin-lockout") == 1)
        #expect(try harness.events("logout") == 1)
        let lockouts = harness.notices(.pinLockout)
        #expect(lockouts.map(\.recipient) == [user.id], "the owner is told, once")
        #expect(lockouts.first?.title == "A session of ada@example.com was ended after 5 wrong PINs")
        #expect(!(lockouts.first?.body.contains(otherPin) ?? true))
        #expect(try await harness.service.unlockState() == .notNeeded)
        #expect(try await harness.service.unlock(pin: goodPin) == .notLoggedIn, "the PIN no longer opens anything")

        // The password starts a new session, which the PIN unlocks again with five fresh tries.
        _ = try await harness.auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        #expect(try await harness.service.unlockState() == .pinRequired(user, triesLeft: 5))
        #expect(try await harness.service.unlock(pin: goodPin) == .unlocked(user))
    }

    @Test func theWrongPinCountSurvivesARestart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moa-pin-\(UUID().uuidString.lowercased())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ManualWallClock()
        let harness = try AuthHarness()

        /// One run of `moa`: the database and the session file opened afresh.
        func launch() throws -> (PinService, SessionManager) {
            let database = try AppDatabase.open(at: folder.appendingPathComponent("moa.sqlite"), migrations: [AuthMigrations.all])
            let repository = SQLiteAuthStore(database: database)
            let sessions = SessionManager(
                repository: repository, hasher: harness.hasher, secrets: harness.secrets,
                store: FileSessionStore(url: folder.appendingPathComponent("session.json")), clock: clock)
            return (
                PinService(
                    pins: SQLitePinStore(database: database), hasher: harness.hasher, sessions: sessions,
                    events: repository, clock: clock), sessions
            )
        }

        do {
            let database = try AppDatabase.open(at: folder.appendingPathComponent("moa.sqlite"), migrations: [AuthMigrations.all])
            let registration = Registration(
                repository: SQLiteAuthStore(database: database), hasher: harness.hasher,
                secrets: harness.secrets, mail: harness.mail, clock: clock)
            _ = try await registration.signUp(email: "ada@example.com", password: AuthHarness.password)
            try await registration.verify(
                email: "ada@example.com", code: harness.mail.lastCode(to: "ada@example.com") ?? "", password: AuthHarness.password)
        }
        let (first, firstSessions) = try launch()
        let user = try await firstSessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        _ = try await first.setPin(goodPin, repeated: goodPin)
        for left in [4, 3, 2] { #expect(try await first.unlock(pin: otherPin) == .wrongPin(triesLeft: left)) }

        let (second, _) = try launch() // quit and start again
        #expect(try await second.unlockState() == .pinRequired(user, triesLeft: 2))
        #expect(try await second.unlock(pin: otherPin) == .wrongPin(triesLeft: 1))

        let (third, thirdSessions) = try launch()
        #expect(try await third.unlock(pin: otherPin) == .sessionEnded)
        #expect(try await thirdSessions.currentUser() == nil)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("session.json").path))
    }
}

@Suite("AuthFeature · the PIN prompt of the interactive mode")
struct PinUnlockScreenTests {
    @Test func theRightPinGoesOnToTheHomeWithoutEchoingIt() async throws {
        let harness = try PinHarness()
        try await harness.loggedIn()
        let (screen, output) = makeScreen([otherPin, goodPin, "1"])
        #expect(await PinUnlockScreen.run(screen, harness.service))
        let text = output.text
        #expect(text.contains("Welcome back, ada@example.com. Enter your PIN to continue (an empty line quits)."))
        #expect(text.contains("Enter your PIN: error: The PIN is wrong (4 tries left).\n"))
        #expect(text.components(separatedBy: "Enter your PIN:").count - 1 == 2)
        #expect(!text.contains(goodPin) && !text.contains(otherPin), "no PIN is ever printed")
        #expect(screen.input.readLine() == "1", "the home reads the next answer")
        #expect(try harness.failures() == 0)
    }

    @Test func aTypoIsSaidAndAskedAgainWithoutCountingIt() async throws {
        let harness = try PinHarness()
        try await harness.loggedIn()
        let (screen, output) = makeScreen(["48291", goodPin])
        #expect(await PinUnlockScreen.run(screen, harness.service))
        #expect(output.text.contains("error: A PIN is exactly 6 digits long."))
        #expect(!output.text.contains("tries left"))
    }

    @Test func fiveWrongPinsEndTheSessionAndSayToUseThePassword() async throws {
        let harness = try PinHarness()
        try await harness.loggedIn()
        let (screen, output) = makeScreen(Array(repeating: otherPin, count: 5) + ["not read"])
        #expect(await PinUnlockScreen.run(screen, harness.service), "the home follows, signed out")
        let text = output.text
        for left in [4, 3, 2] { #expect(text.contains("The PIN is wrong (\(left) tries left).")) }
        #expect(text.contains("The PIN is wrong (1 try left)."))
        #expect(text.contains("One more wrong PIN ends the session."))
        #expect(text.contains("error: Too many wrong PINs — sign in with your password."))
        #expect(try await harness.auth.sessions.currentUser() == nil)
        #expect(screen.input.readLine() == "not read")
    }

    @Test(arguments: [[""], ["   "], []])
    func anEmptyLineOrTheEndOfInputQuits(answers: [String]) async throws {
        let harness = try PinHarness()
        let user = try await harness.loggedIn()
        let (screen, _) = makeScreen(answers)
        #expect(await PinUnlockScreen.run(screen, harness.service) == false)
        #expect(try await harness.auth.sessions.currentUser() == user, "quitting ends nothing")
        #expect(try harness.failures() == 0)
    }

    @MainActor
    @Test func theCommandsViewModelSetsAndRemovesThePin() async throws {
        let harness = try PinHarness()
        let user = try await harness.loggedIn(pin: nil)
        let viewModel = PinViewModel(pins: harness.service)
        await viewModel.send(.set(pin: "111111", repeated: "111111"))
        #expect(viewModel.state.error?.message == "The PIN must not be one digit repeated (like 111111).")
        await viewModel.send(.set(pin: goodPin, repeated: goodPin))
        #expect(viewModel.state.outcome == .pinSet(user))
        await viewModel.send(.status)
        #expect(viewModel.state.outcome == .status(PinStatus(user: user, isSet: true, wrongAttempts: 0, triesLeft: 5)))
        await viewModel.send(.remove(.pin(otherPin)))
        #expect(viewModel.state.error?.message == "The PIN is wrong (4 tries left).")
        await viewModel.send(.remove(.pin(goodPin)))
        #expect(viewModel.state.outcome == .pinRemoved(user, hadPin: true))
    }
}

/// A publisher that writes each notice into a table of the transaction it is given (as Inbox's does),
/// or fails like a store that is down.
private struct TableInbox: InboxPublisher {
    var fails = false

    static func prepare(_ database: AppDatabase) throws {
        try database.write { db in try db.execute(sql: "CREATE TABLE test_notices (kind TEXT NOT NULL, recipient TEXT NOT NULL)") }
    }

    func publish(_ notice: InboxNotice, in transaction: any Transaction) throws {
        if fails { throw StorageError.failed(reason: "the inbox is unavailable") }
        let db = try SQLiteTransaction.open(transaction)
        try db.execute(
            sql: "INSERT INTO test_notices (kind, recipient) VALUES (?, ?)", arguments: [notice.kind.rawValue, notice.recipient.rawValue])
    }
}

@Suite("Auth: removing the PIN, and the notices of PIN events")
struct PinRemovalTests {
    @Test func removingThePinNeedsThePinOrThePassword() async throws {
        let harness = try PinHarness()
        let user = try await harness.loggedIn()
        await #expect(throws: PinError.confirmationNeeded) { try await harness.service.removePin(nil) }
        #expect(PinError.confirmationNeeded.exitStatus == .noPermission)
        await #expect(throws: PinError.wrongLength(6)) { try await harness.service.removePin(.pin("4829")) }
        #expect(try harness.failures() == 0, "a typo is not a wrong PIN")
        await #expect(throws: PinError.wrongPin(triesLeft: 4)) { try await harness.service.removePin(.pin(otherPin)) }
        #expect(try harness.failures() == 1, "a wrong PIN counts as at the unlock prompt")
        await #expect(throws: AccountSecurityError.wrongCurrentPassword) {
            try await harness.service.removePin(.password("not the password at all"))
        }
        #expect(
            try await harness.auth.repository.throttle(for: ThrottleKey.guesser("ada@example.com", client: ThisTerminal.name)).failures
                == 1,
            "a wrong password is a failed login")
        #expect(try await harness.service.status().isSet)
        #expect(try harness.events("pin-removed") == 0)
        #expect(harness.notices(.pinRemoved).isEmpty)

        let removed = try await harness.service.removePin(.password(AuthHarness.password))
        #expect(removed.removed && removed.user == user)
        #expect(try await harness.service.status().isSet == false)
        #expect(try harness.events("pin-removed") == 1)
        let notice = try #require(harness.notices(.pinRemoved).first)
        #expect(notice.recipient == user.id && notice.title == "PIN of ada@example.com removed")
        #expect(notice.body.contains("confirmed with your password") && !notice.body.contains(AuthHarness.password))
    }

    @Test func theRightPinRemovesItAndTheNoticeSaysSo() async throws {
        let harness = try PinHarness()
        try await harness.loggedIn()
        #expect(try await harness.service.removePin(.pin(" \(goodPin) ")).removed)
        #expect(harness.notices(.pinRemoved).first?.body.contains("confirmed with your PIN") == true)
        #expect(!(harness.notices(.pinRemoved).first?.body.contains(goodPin) ?? true))
    }

    @Test func theFifthWrongPinToRemoveItEndsTheSessionLikeAtThePrompt() async throws {
        let harness = try PinHarness()
        let user = try await harness.loggedIn()
        for left in [4, 3, 2] { #expect(try await harness.service.unlock(pin: otherPin) == .wrongPin(triesLeft: left)) }
        await #expect(throws: PinError.wrongPin(triesLeft: 1)) { try await harness.service.removePin(.pin(otherPin)) }
        await #expect(throws: PinError.tooManyWrongPins) { try await harness.service.removePin(.pin(otherPin)) }
        #expect(try await harness.auth.sessions.currentUser() == nil, "the session ended")
        #expect(harness.auth.store.current == nil)
        #expect(try harness.events("pin-lockout") == 1)
        #expect(harness.notices(.pinLockout).map(\.recipient) == [user.id])
        #expect(try harness.auth.count("SELECT COUNT(*) FROM auth_pins") == 1, "the PIN was not removed")
        await #expect(throws: NotLoggedInError()) { try await harness.service.removePin(.pin(goodPin)) }
    }

    @Test func eachNoticeIsWrittenInTheTransactionOfItsEvent() async throws {
        let harness = try PinHarness()
        try TableInbox.prepare(harness.auth.database)
        try await harness.loggedIn()
        let service = harness.service(inbox: TableInbox())
        for _ in 1...5 { _ = try await service.unlock(pin: otherPin) }
        #expect(try harness.auth.count("SELECT COUNT(*) FROM test_notices WHERE kind = 'pin-lockout'") == 1)

        _ = try await harness.auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        await #expect(throws: StorageError.self) { try await harness.service(inbox: TableInbox(fails: true)).removePin(.pin(goodPin)) }
        #expect(try await service.status().isSet, "no notice, no removal")
        #expect(try harness.events("pin-removed") == 0)
        #expect(try await service.removePin(.pin(goodPin)).removed)
        #expect(try harness.auth.count("SELECT COUNT(*) FROM test_notices WHERE kind = 'pin-removed'") == 1)
        #expect(try harness.events("pin-removed") == 1)
    }

    @Test func aLockoutWhoseNoticeFailsIsNotCountedEither() async throws {
        let harness = try PinHarness()
        try await harness.loggedIn()
        let broken = harness.service(inbox: TableInbox(fails: true))
        for _ in 1...4 { _ = try await broken.unlock(pin: otherPin) }
        await #expect(throws: StorageError.self) { try await broken.unlock(pin: otherPin) }
        #expect(try harness.failures() == 4, "the fifth wrong PIN, its event and its notice are one transaction")
        #expect(try harness.events("pin-lockout") == 0)
    }
}
