import AuthData
import AuthDomain
import AuthFeature
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import GRDB
import InboxInterface
import InboxTesting
import Persistence
import Registry
import SharedKit
import Storage
import Testing

// Password change and reset, deleting an account, and the security notices Auth puts in the inbox.

private let newPassword = "a brand new passphrase for moa"

/// A feature's share in deleting a user, scripted: its blockers, and how often it erased.
private final class FakeOwner: UserDataOwner {
    let name: String
    private let blockers: [String]
    private let failsToErase: Bool
    private let erased = Locked<[UserID]>([])

    init(_ name: String, blockers: [String] = [], failsToErase: Bool = false) {
        self.name = name
        self.blockers = blockers
        self.failsToErase = failsToErase
    }

    var erasedUsers: [UserID] { erased.withLock { $0 } }

    func deletionBlockers(for user: UserID, in transaction: any Transaction) throws -> [String] { blockers }

    func erase(_ user: UserID, in transaction: any Transaction) throws {
        if failsToErase { throw StorageError.failed(reason: "\(name) could not erase") }
        erased.withLock { $0.append(user) }
    }
}

/// An owner that really writes in the transaction it is given (a row in its own table), to show
/// that every owner and Auth share one transaction.
private struct WritingOwner: UserDataOwner {
    let name = "Notes"

    func deletionBlockers(for user: UserID, in transaction: any Transaction) throws -> [String] { [] }

    func erase(_ user: UserID, in transaction: any Transaction) throws {
        let db = try SQLiteTransaction.open(transaction)
        try db.execute(sql: "DELETE FROM test_notes WHERE user_id = ?", arguments: [user.rawValue])
    }
}

/// A publisher whose store is down: publishing fails, so the event's transaction must roll back.
private struct BrokenInbox: InboxPublisher {
    func publish(_ notice: InboxNotice, in transaction: any Transaction) throws {
        throw StorageError.failed(reason: "the inbox is unavailable")
    }
}

private func notices(_ auth: AuthHarness, _ kind: InboxNoticeKind) -> [InboxNotice] {
    auth.inbox.notices.filter { $0.kind == kind }
}

private func events(_ auth: AuthHarness, _ kind: String) throws -> Int {
    try auth.database.read { db in
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM auth_security_events WHERE kind = ?", arguments: [kind]) ?? -1
    }
}

/// A verified user logged in on this terminal (`auth.sessions`) and on a second device.
private func loggedInTwice(_ auth: AuthHarness) async throws -> (AuthenticatedUser, SessionManager) {
    try await auth.verifiedUser()
    let user = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
    let laptop = SessionManager(
        repository: auth.repository, hasher: auth.hasher, secrets: auth.secrets,
        store: MemorySessionStore(), clock: auth.clock)
    _ = try await laptop.logIn(email: "ada@example.com", password: AuthHarness.password)
    return (user, laptop)
}

// MARK: - Change

@Suite("Auth: changing the password")
struct PasswordChangeTests {
    @Test func theNewPasswordWorksTheOldOneNotAndEveryOtherSessionEnds() async throws {
        let auth = try AuthHarness()
        let (user, laptop) = try await loggedInTwice(auth)
        let before = try #require(auth.store.current)

        #expect(try await auth.sessions.changePassword(current: AuthHarness.password, new: newPassword) == user)

        #expect(try await laptop.currentUser() == nil) // the other device is logged out
        #expect(try await auth.sessions.currentUser() == user) // this terminal continues…
        let after = try #require(auth.store.current)
        #expect(after.refreshToken != before.refreshToken) // …with new tokens
        let copy = MemorySessionStore()
        try copy.save(before)
        let oldFile = SessionManager(
            repository: auth.repository, hasher: auth.hasher, secrets: auth.secrets, store: copy, clock: auth.clock)
        #expect(try await oldFile.currentUser() == nil) // a copy of the old session file is dead
        #expect(try auth.count("SELECT COUNT(*) FROM auth_sessions WHERE revoked_at IS NULL") == 1)

        await #expect(throws: AuthError.wrongCredentials) {
            try await laptop.logIn(email: "ada@example.com", password: AuthHarness.password)
        }
        _ = try await laptop.logIn(email: "ada@example.com", password: newPassword)
        #expect(try events(auth, "password-changed") == 1)
        let notice = try #require(notices(auth, .passwordChanged).first)
        #expect(notice.recipient == user.id)
        #expect(!notice.body.contains(newPassword) && !notice.body.contains(AuthHarness.password))
    }

    @Test func theNewPasswordFollowsTheSignUpPolicyAndMustDiffer() async throws {
        let auth = try AuthHarness()
        let (_, laptop) = try await loggedInTwice(auth)
        let hash = try await auth.repository.user(email: "ada@example.com")?.passwordHash

        await #expect(throws: AuthError.weakPassword(.tooShort(minimum: 15))) {
            try await auth.sessions.changePassword(current: AuthHarness.password, new: "short one")
        }
        await #expect(throws: AuthError.weakPassword(.containsEmail)) {
            try await auth.sessions.changePassword(current: AuthHarness.password, new: "ada and her long passphrase")
        }
        await #expect(throws: AccountSecurityError.samePassword) {
            try await auth.sessions.changePassword(current: AuthHarness.password, new: AuthHarness.password)
        }
        #expect(try await auth.repository.user(email: "ada@example.com")?.passwordHash == hash)
        #expect(try await laptop.currentUser() != nil)
        #expect(notices(auth, .passwordChanged).isEmpty)
    }

    @Test func aWrongCurrentPasswordCountsLikeAFailedLoginAndLocksTheAddress() async throws {
        let auth = try AuthHarness()
        let (_, laptop) = try await loggedInTwice(auth)
        for _ in 0..<5 {
            await #expect(throws: AccountSecurityError.wrongCurrentPassword) {
                try await auth.sessions.changePassword(current: "not my password at all", new: newPassword)
            }
        }
        // Locked now: even the right current password, and logging in, wait for the delay.
        await #expect {
            try await auth.sessions.changePassword(current: AuthHarness.password, new: newPassword)
        } throws: { error in
            if case .throttled? = error as? AuthError { return true }
            return false
        }
        await #expect {
            try await laptop.logIn(email: "ada@example.com", password: AuthHarness.password)
        } throws: { error in
            if case .throttled? = error as? AuthError { return true }
            return false
        }
        #expect(try events(auth, "login-lockout") == 1)
        #expect(notices(auth, .loginLockout).count == 1)
        #expect(AccountSecurityError.wrongCurrentPassword.exitStatus == .noPermission)
        auth.clock.advance(by: 61)
        _ = try await auth.sessions.changePassword(current: AuthHarness.password, new: newPassword)
    }

    @Test func nobodyLoggedInCannotChangeAPassword() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        await #expect(throws: NotLoggedInError()) {
            try await auth.sessions.changePassword(current: AuthHarness.password, new: newPassword)
        }
    }

    @Test func aNoticeThatCannotBePublishedLeavesThePasswordAsItWas() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        let broken = SessionManager(
            repository: auth.repository, hasher: auth.hasher, secrets: auth.secrets, store: auth.store,
            clock: auth.clock, inbox: BrokenInbox())
        _ = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        await #expect(throws: StorageError.self) {
            try await broken.changePassword(current: AuthHarness.password, new: newPassword)
        }
        #expect(try events(auth, "password-changed") == 0)
        #expect(try auth.count("SELECT COUNT(*) FROM auth_sessions WHERE revoked_at IS NOT NULL") == 0)
        _ = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
    }
}

// MARK: - Reset

@Suite("Auth: resetting a forgotten password")
struct PasswordResetTests {
    @MainActor
    @Test func knownAndUnknownAddressesGetTheSameAnswer() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser("ada@example.com")
        _ = try await auth.registration.signUp(email: "una@example.com", password: AuthHarness.password) // never verified
        let mailsBefore = auth.mail.mails.count

        for email in ["ada@example.com", "bob@example.com", "una@example.com"] {
            let viewModel = AccountSecurityViewModel(
                sessions: auth.sessions, reset: auth.passwordReset, deletion: auth.deletion(owners: []))
            await viewModel.send(.requestReset(email: email))
            #expect(viewModel.state.error == nil)
            #expect(viewModel.state.outcome == .resetRequested(email: email))
        }
        #expect(auth.mail.mails.count == mailsBefore + 1) // only the verified account got a mail
        #expect(auth.mail.mails.last?.to == "ada@example.com")
    }

    @Test func theMailedCodeSetsANewPasswordAndEndsEverySession() async throws {
        let auth = try AuthHarness()
        let (user, laptop) = try await loggedInTwice(auth)
        #expect(try await auth.passwordReset.request(email: "ADA@example.com") == "ada@example.com")
        let mail = try #require(auth.mail.mails.last)
        #expect(mail.subject.contains("password reset") && mail.purpose == .passwordReset, "the outbox files it as …-reset.eml")
        let code = try #require(auth.mail.lastCode(to: "ada@example.com"))
        #expect(try auth.count("SELECT COUNT(*) FROM auth_verifications WHERE code_digest = '\(auth.secrets.digest(code))'") == 1)

        #expect(try await auth.passwordReset.complete(email: "ada@example.com", code: code, newPassword: newPassword) == user)

        #expect(try await auth.sessions.currentUser() == nil)
        #expect(try await laptop.currentUser() == nil)
        #expect(try auth.count("SELECT COUNT(*) FROM auth_sessions WHERE revoked_at IS NULL") == 0)
        await #expect(throws: AuthError.wrongCredentials) {
            try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        }
        _ = try await auth.sessions.logIn(email: "ada@example.com", password: newPassword)
        #expect(try events(auth, "password-reset") == 1)
        #expect(notices(auth, .passwordChanged).map(\.recipient) == [user.id])
        // The code is used up.
        await #expect(throws: AccountSecurityError.resetCodeInvalid) {
            try await auth.passwordReset.complete(email: "ada@example.com", code: code, newPassword: "yet another passphrase here")
        }
    }

    @Test func anExpiredWrongOrUnknownCodeIsOneErrorAndChangesNothing() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        _ = try await auth.passwordReset.request(email: "ada@example.com")
        let code = try #require(auth.mail.lastCode(to: "ada@example.com"))
        let wrong = code == "000000" ? "111111" : "000000"

        await #expect(throws: AccountSecurityError.resetCodeInvalid) {
            try await auth.passwordReset.complete(email: "ada@example.com", code: wrong, newPassword: newPassword)
        }
        await #expect(throws: AccountSecurityError.resetCodeInvalid) {
            try await auth.passwordReset.complete(email: "bob@example.com", code: code, newPassword: newPassword)
        }
        auth.clock.advance(by: 10 * 60)
        await #expect(throws: AccountSecurityError.resetCodeInvalid) {
            try await auth.passwordReset.complete(email: "ada@example.com", code: code, newPassword: newPassword)
        }
        #expect(AccountSecurityError.resetCodeInvalid.message == "The reset code is wrong or has expired.")
        #expect(AccountSecurityError.resetCodeInvalid.exitStatus == .noPermission)
        _ = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        #expect(notices(auth, .passwordChanged).isEmpty)

        // A new request replaces the code; it works within its ten minutes.
        _ = try await auth.passwordReset.request(email: "ada@example.com")
        let fresh = try #require(auth.mail.lastCode(to: "ada@example.com"))
        _ = try await auth.passwordReset.complete(email: "ada@example.com", code: fresh, newPassword: newPassword)
    }

    @Test func oneResetMailPerMinuteAtMostTheSameAnswerMeanwhile() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        let before = auth.mail.mails.count
        #expect(try await auth.passwordReset.request(email: "ada@example.com") == "ada@example.com")
        let first = try #require(auth.mail.lastCode(to: "ada@example.com"))
        auth.clock.advance(by: 30)
        #expect(try await auth.passwordReset.request(email: "ada@example.com") == "ada@example.com")
        #expect(auth.mail.mails.count == before + 1, "no second mail within the minute")
        auth.clock.advance(by: 31)
        _ = try await auth.passwordReset.request(email: "ada@example.com")
        #expect(auth.mail.mails.count == before + 2)
        let second = try #require(auth.mail.lastCode(to: "ada@example.com"))
        if second != first {
            await #expect(throws: AccountSecurityError.resetCodeInvalid, "the newer code replaced the first") {
                try await auth.passwordReset.complete(email: "ada@example.com", code: first, newPassword: newPassword)
            }
        }
        _ = try await auth.passwordReset.complete(email: "ada@example.com", code: second, newPassword: newPassword)
    }

    /// Five wrong codes lock out the client that entered them; the code itself survives a single
    /// guesser (it dies after ten wrong tries from everywhere), so its owner can still use it.
    @Test func fiveWrongCodesLockTheGuesserAndTheCodeSurvivesThem() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        _ = try await auth.passwordReset.request(email: "ada@example.com")
        let code = try #require(auth.mail.lastCode(to: "ada@example.com"))
        let wrong = code == "000000" ? "111111" : "000000"
        for _ in 0..<5 {
            await #expect(throws: AccountSecurityError.resetCodeInvalid) {
                try await auth.passwordReset.complete(email: "ada@example.com", code: wrong, newPassword: newPassword)
            }
        }
        await #expect(throws: AccountSecurityError.resetLocked(until: auth.clock.now().addingTimeInterval(10 * 60))) {
            try await auth.passwordReset.complete(email: "ada@example.com", code: code, newPassword: newPassword)
        }
        // The lock lasts a code's whole life (ten minutes), so no single client uses a code up; the
        // owner, from anywhere, still could use it. Afterwards a new code works from here too.
        auth.clock.advance(by: 10 * 60 + 1)
        _ = try await auth.passwordReset.request(email: "ada@example.com")
        let next = try #require(auth.mail.lastCode(to: "ada@example.com"))
        _ = try await auth.passwordReset.complete(email: "ada@example.com", code: next, newPassword: newPassword)
    }

    @Test func theNewPasswordFollowsTheSignUpPolicy() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        _ = try await auth.passwordReset.request(email: "ada@example.com")
        let code = try #require(auth.mail.lastCode(to: "ada@example.com"))
        await #expect(throws: AuthError.weakPassword(.common)) {
            try await auth.passwordReset.complete(email: "ada@example.com", code: code, newPassword: "passwordpassword")
        }
        _ = try await auth.passwordReset.complete(email: "ada@example.com", code: code, newPassword: newPassword) // still valid
    }

    /// An address still waiting for its sign-up code has one code slot: a reset within the minute
    /// mails nothing more, and the code in the mailbox sets the password by either door — whoever
    /// holds it owns the address.
    @Test func aWaitingAddressHasOneCodeAndEitherDoorSetsThePasswordWithIt() async throws {
        let auth = try AuthHarness()
        _ = try await auth.registration.signUp(email: "una@example.com", password: AuthHarness.password)
        let signUpCode = try #require(auth.mail.lastCode(to: "una@example.com"))
        _ = try await auth.passwordReset.request(email: "una@example.com")
        #expect(auth.mail.mails.count == 1)
        _ = try await auth.passwordReset.complete(email: "una@example.com", code: signUpCode, newPassword: newPassword)
        _ = try await auth.sessions.logIn(email: "una@example.com", password: newPassword)
        await #expect(throws: AuthError.codeRejected) {
            try await auth.registration.verify(email: "una@example.com", code: signUpCode, password: AuthHarness.password)
        }
    }
}

// MARK: - Delete

@Suite("Auth: deleting the account")
struct AccountDeletionTests {
    @Test func aBlockingFeatureStopsEverythingAndEveryReasonIsNamed() async throws {
        let auth = try AuthHarness()
        let (user, laptop) = try await loggedInTwice(auth)
        let account = FakeOwner("Account", blockers: ["Account 110-1234-5678-9 holds ₩50,000."])
        let transfer = FakeOwner("Transfer")
        let archive = FakeOwner("Archive", blockers: ["2 tickets are still being exported"])
        let deletion = auth.deletion(owners: [account, transfer, archive])

        do {
            _ = try await deletion.delete(confirmation: "ada@example.com")
            Issue.record("a blocked deletion went through")
        } catch let error as AccountSecurityError {
            #expect(error.exitStatus == .refused)
            #expect(
                error.message == "Your account cannot be deleted yet: Account 110-1234-5678-9 holds ₩50,000. "
                    + "2 tickets are still being exported.")
            #expect(error.message(in: .ko).hasPrefix("아직 계정을 삭제할 수 없습니다"))
        }
        #expect(account.erasedUsers.isEmpty && transfer.erasedUsers.isEmpty && archive.erasedUsers.isEmpty)
        #expect(try await auth.repository.user(id: user.id) != nil)
        #expect(try await auth.sessions.currentUser() == user)
        #expect(try await laptop.currentUser() == user)
    }

    @Test func deletingErasesEveryOwnerOnceThenAuthAndTheAddressCanSignUpAgain() async throws {
        let auth = try AuthHarness()
        let (user, _) = try await loggedInTwice(auth)
        let other = SessionManager(
            repository: auth.repository, hasher: auth.hasher, secrets: auth.secrets, store: MemorySessionStore(), clock: auth.clock)
        for _ in 0..<2 { _ = try? await other.logIn(email: "ada@example.com", password: "a wrong password, twice") }
        // This client's count at the address, the address's own, and the client's across addresses.
        #expect(try auth.count("SELECT COUNT(*) FROM auth_throttles") == 3)
        _ = try await auth.passwordReset.request(email: "ada@example.com")
        let owners = [FakeOwner("Account"), FakeOwner("Transfer"), FakeOwner("Settings")]

        let report = try await auth.deletion(owners: owners).delete(confirmation: "  ADA@example.com ")

        #expect(report == DeletionReport(user: user, erased: ["Account", "Transfer", "Settings", "Auth"]))
        #expect(owners.allSatisfy { $0.erasedUsers == [user.id] })
        #expect(try await auth.repository.user(id: user.id) == nil)
        for table in ["auth_users", "auth_sessions", "auth_verifications", "auth_throttles", "auth_security_events"] {
            // A client's count across addresses ("client:…") is about the client, not the user: it stays.
            #expect(
                try auth.count("SELECT COUNT(*) FROM \(table) WHERE \(table == "auth_throttles" ? "email NOT LIKE 'client:%'" : "1")") == 0,
                "\(table) still has rows")
        }
        #expect(auth.store.current == nil) // the session file is gone
        #expect(try await auth.sessions.currentUser() == nil)

        _ = try await auth.registration.signUp(email: "ada@example.com", password: newPassword)
        try await auth.registration.verify(
            email: "ada@example.com", code: auth.mail.lastCode(to: "ada@example.com") ?? "", password: newPassword)
        let again = try await auth.sessions.logIn(email: "ada@example.com", password: newPassword)
        #expect(again.id != user.id)
    }

    @Test func aConfirmationThatIsNotTheAddressChangesNothing() async throws {
        let auth = try AuthHarness()
        let (user, _) = try await loggedInTwice(auth)
        let owner = FakeOwner("Account")
        for typed in ["", "bob@example.com", "ada@example.co", "yes"] {
            await #expect(throws: AccountSecurityError.deletionNotConfirmed) {
                try await auth.deletion(owners: [owner]).delete(confirmation: typed)
            }
        }
        #expect(AccountSecurityError.deletionNotConfirmed.exitStatus == .dataError)
        #expect(owner.erasedUsers.isEmpty)
        #expect(try await auth.sessions.currentUser() == user)
    }

    @Test func nobodyLoggedInCannotDelete() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        await #expect(throws: NotLoggedInError()) {
            try await auth.deletion(owners: []).delete(confirmation: "ada@example.com")
        }
    }

    @Test func ownersAndAuthShareOneTransactionSoAFailureUndoesEveryErase() async throws {
        let auth = try AuthHarness()
        let (user, _) = try await loggedInTwice(auth)
        try await auth.database.write { db in
            try db.execute(sql: "CREATE TABLE test_notes (user_id TEXT NOT NULL, text TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO test_notes VALUES (?, 'remember the milk')", arguments: [user.id.rawValue])
        }
        let failing = FakeOwner("Archive", failsToErase: true)
        await #expect(throws: StorageError.self) {
            try await auth.deletion(owners: [WritingOwner(), failing]).delete(confirmation: "ada@example.com")
        }
        #expect(try auth.count("SELECT COUNT(*) FROM test_notes") == 1) // the first owner's erase was rolled back
        #expect(try await auth.repository.user(id: user.id) != nil)
        #expect(try await auth.sessions.currentUser() == user)

        _ = try await auth.deletion(owners: [WritingOwner()]).delete(confirmation: "ada@example.com")
        #expect(try auth.count("SELECT COUNT(*) FROM test_notes") == 0)
    }
}

// MARK: - Notices

@Suite("Auth: security notices in the inbox")
struct SecurityNoticeTests {
    @Test func eachPasswordLoginPublishesANewLoginNoticeAndAFailedOneNothing() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        _ = try? await auth.sessions.logIn(email: "ada@example.com", password: "not the password at all")
        #expect(auth.inbox.notices.isEmpty)
        let user = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        _ = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        let logins = notices(auth, .newLogin)
        #expect(logins.count == 2)
        #expect(logins.allSatisfy { $0.recipient == user.id && $0.createdAt == auth.clock.now() && $0.title.contains("ada@example.com") })
        let session = try #require(auth.store.current)
        #expect(!logins.contains { $0.body.contains(session.accessToken) || $0.body.contains(AuthHarness.password) })
        // A refresh is not a login.
        auth.clock.advance(by: 16 * 60)
        _ = try await auth.sessions.currentUser()
        #expect(notices(auth, .newLogin).count == 2)
    }

    @Test func reusingARotatedRefreshTokenPublishesOneReuseNotice() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        let user = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        let stolen = try #require(auth.store.current)
        auth.clock.advance(by: 16 * 60)
        _ = try await auth.sessions.currentUser()
        #expect(notices(auth, .refreshTokenReuse).isEmpty)

        let thief = MemorySessionStore()
        try thief.save(stolen)
        let thiefs = SessionManager(
            repository: auth.repository, hasher: auth.hasher, secrets: auth.secrets, store: thief,
            clock: auth.clock, inbox: auth.inbox)
        auth.clock.advance(by: 16 * 60)
        #expect(try await thiefs.currentUser() == nil)
        let reuse = notices(auth, .refreshTokenReuse)
        #expect(reuse.map(\.recipient) == [user.id])
        #expect(!(reuse.first?.body.contains(stolen.refreshToken) ?? true))
    }

    @Test func aLoginLockoutTellsTheOwnerAndAnswersAsForAnUnknownAddress() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        let ada = try #require(try await auth.repository.user(email: "ada@example.com"))
        let wrong = "not the password at all"
        var answers: [String: [String]] = [:]
        for email in ["ada@example.com", "nobody@example.com"] {
            for _ in 0..<6 {
                do {
                    _ = try await auth.sessions.logIn(email: email, password: wrong)
                } catch let error as any UserFacingError {
                    answers[email, default: []].append("\(error.message) \(error.exitStatus.rawValue)")
                }
            }
        }
        #expect(answers["ada@example.com"] == answers["nobody@example.com"], "the caller learns nothing about the address")
        #expect(answers["ada@example.com"]?.last?.hasPrefix("Too many failed attempts from here") == true)

        let lockouts = notices(auth, .loginLockout)
        #expect(lockouts.map(\.recipient) == [ada.id], "one notice, to the owner; none for the unknown address")
        let notice = try #require(lockouts.first)
        #expect(notice.title.hasPrefix("Guesses at ada@example.com from this terminal stopped until "))
        #expect(notice.body.contains("You can still log in and reset your password."))
        #expect(notice.body.contains("wrong passwords"))
        #expect(!notice.title.contains(wrong) && !notice.body.contains(wrong))
        #expect(try events(auth, "login-lockout") == 2, "both lockouts are recorded")
    }

    @Test func wrongCurrentPasswordsAndResetCodesThatLockAGuesserTellTheOwnerToo() async throws {
        let auth = try AuthHarness()
        let (user, _) = try await loggedInTwice(auth)
        for _ in 0..<5 { _ = try? await auth.sessions.changePassword(current: "not my password at all", new: newPassword) }
        #expect(notices(auth, .loginLockout).map(\.recipient) == [user.id])

        auth.clock.advance(by: 3600)
        _ = try await auth.passwordReset.request(email: "ada@example.com")
        let code = try #require(auth.mail.lastCode(to: "ada@example.com"))
        let wrongCode = code == "000000" ? "111111" : "000000"
        for _ in 0..<5 { _ = try? await auth.passwordReset.complete(email: "ada@example.com", code: wrongCode, newPassword: newPassword) }
        let lockouts = notices(auth, .loginLockout)
        #expect(lockouts.count == 2)
        #expect(lockouts.last?.body.contains("wrong codes") == true)
        #expect(!(lockouts.last?.body.contains(code) ?? true) && !(lockouts.last?.body.contains(wrongCode) ?? true))
    }

    @Test func aLockoutWhoseNoticeCannotBePublishedIsNotRecordedEither() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        let broken = SessionManager(
            repository: auth.repository, hasher: auth.hasher, secrets: auth.secrets, store: auth.store,
            clock: auth.clock, inbox: BrokenInbox())
        for _ in 0..<4 { _ = try? await broken.logIn(email: "ada@example.com", password: "not the password at all") }
        await #expect(throws: StorageError.self) {
            try await broken.logIn(email: "ada@example.com", password: "not the password at all")
        }
        #expect(try events(auth, "login-lockout") == 0, "the event and its notice are one transaction")
    }

    @Test func theResetCodeLockoutHasItsOwnSentence() {
        let until = Date(timeIntervalSince1970: 1_767_225_660)
        let error = AccountSecurityError.resetLocked(until: until)
        #expect(error.message.hasPrefix("Too many wrong codes for this address from here: no code is accepted from here before "))
        #expect(!error.message.contains("failed logins"))
        #expect(error.message.hasSuffix(".") && !error.message.hasSuffix(".."))
        #expect(error.exitStatus == .temporaryFailure)
        #expect(error.localizedMessage.ko.contains("틀린 코드"))
    }

    @Test func aLoginWhoseNoticeCannotBePublishedRecordsNoLoginEvent() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        let broken = SessionManager(
            repository: auth.repository, hasher: auth.hasher, secrets: auth.secrets, store: auth.store,
            clock: auth.clock, inbox: BrokenInbox())
        await #expect(throws: StorageError.self) {
            try await broken.logIn(email: "ada@example.com", password: AuthHarness.password)
        }
        #expect(try events(auth, "login") == 0)
        #expect(try auth.count("SELECT COUNT(*) FROM auth_sessions") == 0) // no session without its event
        #expect(auth.store.current == nil)
    }
}

// MARK: - Commands

/// Runs `moa auth …` through Auth's composed modules on the harness's database.
private struct AuthCommandHarness {
    let auth: AuthHarness
    let owners: [any UserDataOwner]

    struct Run {
        let out: String
        let err: String
        let status: Int32
    }

    func run(_ arguments: [String]) async throws -> Run {
        let registry = try RegistryBuilder(modules: [
            ModuleOf.core(
                database: auth.database, clock: auth.clock,
                home: MoaHome(root: FileManager.default.temporaryDirectory.appendingPathComponent("moa-auth-cmd"))),
            AuthHarness.otherFeatures(inbox: auth.inbox, owners: owners),
            AuthDataModule(), AuthFeatureModule(),
        ]).validate(root: AuthCommandsKey.self).overriding { overrides in
            overrides.replace(.instance(PasswordHasherKey.self, auth.hasher))
            overrides.replace(.instance(MailSenderKey.self, auth.mail))
            overrides.replace(.instance(SessionStoreKey.self, auth.store))
        }
        let group = registry.resolve()
        let command = try AuthCommand.parseAsRoot(arguments)
        let out = CapturingOutput()
        let err = CapturingOutput()
        let context = CommandContext(json: arguments.contains("--json"), out: out, err: err)
        var status = ExitStatus.ok
        do {
            _ = try await group.run(command, context: context)
        } catch let error as any UserFacingError {
            status = context.report(error)
        }
        return Run(out: out.text, err: err.text, status: status.rawValue)
    }
}

@Suite("Auth: password and delete commands")
struct AccountSecurityCommandTests {
    @Test func resetRequestsAnswerTheSameForKnownAndUnknownAddressesInJSONToo() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        let commands = AuthCommandHarness(auth: auth, owners: [])
        let known = try await commands.run(["password", "reset", "--email", "ada@example.com", "--json"])
        let unknown = try await commands.run(["password", "reset", "--email", "bob@example.com", "--json"])
        #expect(known.status == 0 && unknown.status == 0)
        #expect(known.out.replacingOccurrences(of: "ada@", with: "x@") == unknown.out.replacingOccurrences(of: "bob@", with: "x@"))
        #expect(known.out.contains(#""status" : "reset-code-requested""#))
        let code = try #require(auth.mail.lastCode(to: "ada@example.com"))
        #expect(!known.out.contains(code) && !known.err.contains(code))

        let human = try await commands.run(["password", "reset", "--email", "bob@example.com"])
        #expect(human.out.contains("If bob@example.com has a verified account, a reset code is on its way"))
    }

    @Test func passwordStdinWithoutACodeIsAUsageError() {
        #expect(throws: (any Error).self) {
            _ = try AuthCommand.parseAsRoot(["password", "reset", "--email", "ada@example.com", "--password-stdin"])
        }
    }

    @Test func deleteWithConfirmReportsInJSONAndAMismatchExitsWithoutChange() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        let user = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        let owner = FakeOwner("Account")
        let commands = AuthCommandHarness(auth: auth, owners: [owner])

        let mismatch = try await commands.run(["delete", "--confirm", "bob@example.com"])
        #expect(mismatch.status == ExitStatus.dataError.rawValue)
        #expect(mismatch.err.contains("does not match your e-mail address"))
        #expect(try await auth.repository.user(id: user.id) != nil)

        let deleted = try await commands.run(["delete", "--confirm", "ada@example.com", "--json"])
        #expect(deleted.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(deleted.out.utf8)) as? [String: Any])
        #expect(json["status"] as? String == "deleted")
        #expect(json["email"] as? String == "ada@example.com")
        #expect(json["erased"] as? [String] == ["Account", "Auth"])
        #expect(owner.erasedUsers == [user.id])
        #expect(auth.store.current == nil)
    }

    @Test func pinRemoveAsksForThePinOrThePasswordAndWithoutATerminalSaysHow() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        _ = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        let commands = AuthCommandHarness(auth: auth, owners: [])

        let none = try await commands.run(["pin", "remove"])
        #expect(none.status == 0, "no PIN: nothing to ask, nothing to remove")
        #expect(none.out.contains("ada@example.com had no PIN."))

        let pins = SQLitePinStore(database: auth.database)
        try await pins.savePin(hash: try auth.hasher.hash("482913"), for: try #require(auth.store.current).userID, at: auth.clock.now())
        let unasked = try await commands.run(["pin", "remove"])
        #expect(unasked.status == ExitStatus.usage.rawValue)
        #expect(
            unasked.err.contains(
                "There is no terminal to ask for your PIN: pipe it into --pin-stdin, or your password into --password-stdin."))
        #expect(try auth.count("SELECT COUNT(*) FROM auth_pins") == 1, "the PIN stays")
        #expect(notices(auth, .pinRemoved).isEmpty)
        #expect(throws: (any Error).self) { _ = try AuthCommand.parseAsRoot(["pin", "remove", "--pin-stdin", "--password-stdin"]) }
    }

    @Test func aBlockedDeleteExitsOneAndNamesEveryBlocker() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        _ = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        let commands = AuthCommandHarness(
            auth: auth,
            owners: [
                FakeOwner("Account", blockers: ["Account 110-1 holds ₩50,000."]),
                FakeOwner("Transfer", blockers: ["A transfer is pending."]),
            ])
        let run = try await commands.run(["delete", "--confirm", "ada@example.com", "--json"])
        #expect(run.status == 1)
        #expect(run.err.contains("Account 110-1 holds ₩50,000.") && run.err.contains("A transfer is pending."))
        #expect(run.out.isEmpty)
        #expect(auth.store.current != nil)
    }
}
