import AuthInterface
import Foundation
import Persistence
import Registry
import SharedKit

/// What `moa auth delete` did.
public struct DeletionReport: Sendable, Equatable {
    /// The user that no longer exists.
    public let user: AuthenticatedUser
    /// Every feature whose data was erased, in order; Auth last.
    public let erased: [String]

    public init(user: AuthenticatedUser, erased: [String]) {
        self.user = user
        self.erased = erased
    }
}

/// `moa auth delete`: deletes the logged-in user and everything every feature keeps about them.
///
/// In **one** unit of work: every ``UserDataOwner`` is asked for `deletionBlockers`; if any has
/// one, ``AccountSecurityError/deletionBlocked(_:)`` names them all and nothing changes. Otherwise
/// every owner erases, then Auth deletes its own rows — sessions, pending code, throttle, security
/// events and the user row itself (deleted, not tombstoned: the address may sign up again, and the
/// random user id is never reused, and the user's sessions go with it). Last, the session file of
/// this terminal, if there is one, is removed.
public struct AccountDeletion: Sendable {
    private let sessions: any SessionProvider
    private let repository: any AuthStore
    private let store: (any SessionStore)?
    private let unitOfWork: any UnitOfWork
    private let owners: [any UserDataOwner]

    /// - Parameters:
    ///   - sessions: who is deleted: the terminal's session (`moa`), or the request's user (`moa-server`).
    ///   - store: the terminal's session file, removed after a deletion; `nil` on the server.
    public init(
        sessions: any SessionProvider, repository: any AuthStore, store: (any SessionStore)?,
        unitOfWork: any UnitOfWork, owners: [any UserDataOwner]
    ) {
        self.sessions = sessions
        self.repository = repository
        self.store = store
        self.unitOfWork = unitOfWork
        self.owners = owners
    }

    /// The user a deletion would delete, or ``NotLoggedInError`` (for the confirmation prompt).
    public func userToDelete() async throws -> AuthenticatedUser {
        try await sessions.requireUser()
    }

    /// Deletes the logged-in user if `confirmation` is their e-mail address (compared in the canonical
    /// form of addresses, without surrounding spaces); any other text changes nothing.
    public func delete(confirmation: String) async throws -> DeletionReport {
        let user = try await sessions.requireUser()
        let typed = confirmation.trimmingCharacters(in: .whitespacesAndNewlines)
        guard EmailAddress.canonical(typed) == EmailAddress.canonical(user.email) else {
            throw AccountSecurityError.deletionNotConfirmed
        }

        let owners = owners
        let repository = repository
        try await unitOfWork.perform { transaction in
            let blockers = try owners.flatMap { owner in
                try owner.deletionBlockers(for: user.id, in: transaction).map { DeletionBlocker(owner: owner.name, reason: $0) }
            }
            guard blockers.isEmpty else { throw AccountSecurityError.deletionBlocked(blockers) }
            for owner in owners { try owner.erase(user.id, in: transaction) }
            try repository.eraseUser(user.id, email: user.email, in: transaction)
        }
        // A server's remembered tokens of the user (``AccessCache``), forgotten again now that it committed.
        (repository as? ForgettingAuthStore)?.forgetSessions(of: user.id)
        try store?.clear()
        return DeletionReport(user: user, erased: owners.map(\.name) + ["Auth"])
    }
}

/// Deleting the logged-in user.
public enum AccountDeletionKey: ServiceKey { public typealias Service = any AccountDeletionUseCases }
