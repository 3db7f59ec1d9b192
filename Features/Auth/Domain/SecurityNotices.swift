import AuthInterface
import Foundation
import InboxInterface
import Persistence
import SharedKit

/// The inbox notices Auth publishes for security events, and the work that publishes one inside
/// the repository's transaction (so a notice exists exactly when its event was committed).
///
/// Notices name the account (the inbox shows when), never a token, a code or a password.
enum SecurityNotices {
    static func newLogin(_ user: UserID, email: String, at date: Date) -> InboxNotice {
        InboxNotice(
            recipient: user, kind: .newLogin, title: "New login to \(email)",
            body: "A new session began with your password. "
                + "If this was not you, change your password with `moa auth password change`.",
            createdAt: date)
    }

    static func refreshTokenReuse(_ user: UserID, email: String, at date: Date) -> InboxNotice {
        InboxNotice(
            recipient: user, kind: .refreshTokenReuse, title: "A session of \(email) was ended",
            body: "An old sign-in token of one of your sessions was used again, "
                + "which happens when a copy of a session file is used elsewhere: that session is revoked everywhere. "
                + "If you did not expect this, change your password.",
            createdAt: date)
    }

    static func passwordChanged(_ user: UserID, email: String, at date: Date, byReset: Bool) -> InboxNotice {
        let how = byReset ? "was reset with a code mailed to \(email)" : "was changed"
        return InboxNotice(
            recipient: user, kind: .passwordChanged, title: "Password of \(email) changed",
            body: "Your password \(how); every other session was logged out. "
                + "If this was not you, reset it with `moa auth password reset --email \(email)`.",
            createdAt: date)
    }

    /// Which secret was guessed wrong too often when a client was locked out of an address.
    enum LockoutCause: Sendable {
        /// Wrong passwords: at login, or as the current password (`password change`, `pin remove`).
        case passwords
        /// Wrong codes (verification or password reset).
        case codes
    }

    static func loginLockout(
        _ user: UserID, email: String, client: String, until: Date, cause: LockoutCause, at date: Date
    ) -> InboxNotice {
        let what =
            switch cause {
            case .passwords: "wrong passwords"
            case .codes: "wrong codes"
            }
        let who = client == ThisTerminal.name ? "this terminal" : client
        return InboxNotice(
            recipient: user, kind: .loginLockout, title: "Guesses at \(email) from \(who) stopped until \(AuthError.time(until))",
            body: "Too many \(what) were tried for your address from \(who), so that client is refused until then. "
                + "You can still log in and reset your password. "
                + "If this was not you, someone may be guessing: keep a long password that you use nowhere else.",
            createdAt: date)
    }

    static func pinLockout(_ user: UserID, email: String, attempts: Int, at date: Date) -> InboxNotice {
        InboxNotice(
            recipient: user, kind: .pinLockout, title: "A session of \(email) was ended after \(attempts) wrong PINs",
            body: "\(attempts) wrong PINs in a row were typed for your session, so it was logged out and your password is needed "
                + "to log in again. If this was not you, change your password with `moa auth password change`.",
            createdAt: date)
    }

    static func pinRemoved(_ user: UserID, email: String, confirmedWith proof: PinProof, at date: Date) -> InboxNotice {
        let how =
            switch proof {
            case .pin: "your PIN"
            case .password: "your password"
            }
        return InboxNotice(
            recipient: user, kind: .pinRemoved, title: "PIN of \(email) removed",
            body: "The PIN that unlocks the interactive mode was removed, confirmed with \(how): `moa` no longer asks for one. "
                + "If this was not you, change your password with `moa auth password change` and set a PIN with `moa auth pin set`.",
            createdAt: date)
    }

    /// The work that publishes `notice` in the transaction it is given; nothing without a publisher.
    static func publishing(_ notice: InboxNotice, through publisher: (any InboxPublisher)?) -> @Sendable (any Transaction) throws -> Void {
        { transaction in try publisher?.publish(notice, in: transaction) }
    }
}

extension AuthStore {
    /// Records that `client` was locked out of `address` (a `login-lockout` event) and, when the
    /// address has an account, publishes the notice to its owner, in one transaction. The same work,
    /// minus the notice, for an address without an account: the caller's answer never depends on it.
    func recordLockout(
        of address: String, by client: String, user: UserRecord?, until: Date?, cause: SecurityNotices.LockoutCause,
        at now: Date, inbox: (any InboxPublisher)?
    ) async throws {
        let event = SecurityEvent(userID: user?.id, email: address, kind: .loginLockout, at: now)
        guard let user, user.verifiedAt != nil, let until else {
            try await record(event, alongside: { _ in })
            return
        }
        try await record(
            event,
            alongside: SecurityNotices.publishing(
                SecurityNotices.loginLockout(user.id, email: user.email, client: client, until: until, cause: cause, at: now),
                through: inbox))
    }
}
