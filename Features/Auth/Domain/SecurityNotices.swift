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

    /// The work that publishes `notice` in the transaction it is given; nothing without a publisher.
    static func publishing(_ notice: InboxNotice, through publisher: (any InboxPublisher)?) -> @Sendable (any Transaction) throws -> Void {
        { transaction in try publisher?.publish(notice, in: transaction) }
    }
}
