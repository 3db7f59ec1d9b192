import Persistence
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

// MARK: - Deleting a user (`moa auth delete`)

/// A feature's share in deleting a user. Auth owns the command; every feature that keeps data about
/// users provides one of these (the App lists them under ``UserDataOwnersKey``), and Auth runs them
/// all in **one** transaction: first every `deletionBlockers`, and only if none has anything to
/// say, every `erase` — so a refused deletion changes nothing, and an accepted one leaves no
/// feature half-erased.
public protocol UserDataOwner: Sendable {
    /// The feature, e.g. "Account" (in `--json` and in errors).
    var name: String { get }
    /// Why the user cannot be deleted yet, one sentence each (e.g. "Account 110-1234-5678-9 holds
    /// ₩50,000."); empty when nothing stands in the way.
    func deletionBlockers(for user: UserID, in transaction: any Transaction) throws -> [String]
    /// Removes the user's data, or anonymises what other users still need (e.g. the ledger history
    /// of transfers they received). Runs after every owner found no blocker, in the same transaction.
    func erase(_ user: UserID, in transaction: any Transaction) throws
}

/// Every feature's `UserDataOwner`, in the order they erase (composed by the App).
public enum UserDataOwnersKey: ServiceKey {
    public typealias Service = [any UserDataOwner]
    public static var expectedProvider: String { "App" }
}

/// The `UserDataOwner` of data that never stands in the way of a deletion and is simply erased
/// (a feature's own per-user rows: notices, tickets, settings, favourites). Features whose data can
/// block a deletion (Account: money) implement the protocol themselves.
public struct ErasingUserData: UserDataOwner {
    public let name: String
    private let eraseUser: @Sendable (UserID, any Transaction) throws -> Void

    /// `erase` removes (or anonymises) the user's data in the transaction it is given.
    public init(_ name: String, erase: @escaping @Sendable (UserID, any Transaction) throws -> Void) {
        self.name = name
        self.eraseUser = erase
    }

    public func deletionBlockers(for user: UserID, in transaction: any Transaction) throws -> [String] { [] }

    public func erase(_ user: UserID, in transaction: any Transaction) throws {
        try eraseUser(user, transaction)
    }
}
