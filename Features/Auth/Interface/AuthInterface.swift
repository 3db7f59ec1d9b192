import Registry
import SharedKit

// What other features may use of Auth: who is logged in, and a way to require it.

/// The user of the current session.
public struct AuthenticatedUser: Sendable, Hashable, Codable {
    public let id: UserID
    public let email: String

    public init(id: UserID, email: String) {
        self.id = id
        self.email = email
    }
}

/// The session of the person at the terminal. An expired access token is refreshed transparently
/// (once, even when many callers need it at the same moment).
public protocol SessionProvider: Sendable {
    /// The logged-in user, or `nil` when nobody is logged in (or the session ended).
    func currentUser() async throws -> AuthenticatedUser?
}

extension SessionProvider {
    /// The logged-in user, or ``NotLoggedInError`` (exit status 77).
    public func requireUser() async throws -> AuthenticatedUser {
        guard let user = try await currentUser() else { throw NotLoggedInError() }
        return user
    }
}

public enum SessionProviderKey: ServiceKey {
    public typealias Service = any SessionProvider
}

/// What every command that needs a user says when there is none.
public struct NotLoggedInError: UserFacingError, Equatable {
    public init() {}
    public var message: String { "Not logged in — run `moa auth login`." }
    public var exitStatus: ExitStatus { .noPermission }
}
