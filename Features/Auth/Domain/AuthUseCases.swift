import AuthInterface
import Registry

// What Auth's commands and screens ask of the bank besides the session (``SessionManager``, which
// both modes share): the embedded implementations on this machine's database, or the App's remote
// ones over `moa-server`'s API. Each throws the same typed errors either way.

/// Sign-up and verification (``Registration``).
public protocol RegistrationUseCases: Sendable {
    /// Checks the password against the policy and mails a code to the address (the same answer for
    /// every address).
    func signUp(email: String, password: String) async throws -> CodeSent
    /// Sets the account's password with a mailed code: whoever holds the code chooses the password.
    func verify(email: String, code: String, password: String) async throws
    /// Mails a new code for an address that is still unverified (the same answer for every address).
    func resendCode(email: String) async throws -> CodeSent
}

/// Resetting a forgotten password with a mailed code (``PasswordReset``).
public protocol PasswordResetUseCases: Sendable {
    /// Mails a code if `email` belongs to a verified account; returns the normalised address either way.
    func request(email: String) async throws -> String
    /// Sets a new password with the code; every session of the user is revoked.
    func complete(email: String, code: String, newPassword: String) async throws -> AuthenticatedUser
}

/// Deleting the logged-in user and everything every feature keeps about them (``AccountDeletion``).
public protocol AccountDeletionUseCases: Sendable {
    /// The user a deletion would delete, or `NotLoggedInError`.
    func userToDelete() async throws -> AuthenticatedUser
    /// Deletes the logged-in user if `confirmation` is their e-mail address.
    func delete(confirmation: String) async throws -> DeletionReport
}

extension Registration: RegistrationUseCases {}
extension PasswordReset: PasswordResetUseCases {}
extension AccountDeletion: AccountDeletionUseCases {}

/// Sign-up and verification.
public enum RegistrationKey: ServiceKey { public typealias Service = any RegistrationUseCases }
