import AuthInterface
import SharedKit

/// A `SessionProvider` for other features' tests and Examples: nobody, or a fixed user, logged in.
public final class FakeSessionProvider: SessionProvider {
    private let user: Locked<AuthenticatedUser?>

    /// Starts with `user` logged in (`nil`: nobody).
    public init(user: AuthenticatedUser? = FakeSessionProvider.ada) {
        self.user = Locked(user)
    }

    /// A ready-made user.
    public static let ada = AuthenticatedUser(id: "user-ada", email: "ada@example.com")

    public func currentUser() async throws -> AuthenticatedUser? { user.withLock { $0 } }

    /// Logs `user` in (or, with `nil`, out).
    public func set(_ user: AuthenticatedUser?) {
        self.user.withLock { $0 = user }
    }
}
