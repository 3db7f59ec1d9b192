import AuthInterface

/// Whose rules a terminal's session follows: what ``SessionManager`` asks when it logs in, checks,
/// refreshes, ends or re-issues the session it keeps in the session file.
///
/// The embedded app's is ``LocalSessionAuthority`` (``SessionTokens`` on this machine's database);
/// when `moa` is a client of `moa-server`, the App composes one that asks the server over its API.
/// Either way the session file, its expiry and the single-flight refresh are the manager's.
public protocol SessionAuthority: Sendable {
    /// Checks the password and starts a session of a new family.
    func logIn(email: String, password: String) async throws -> StoredSession
    /// Whether the stored access token (not yet expired by its own clock) is still honoured.
    func accessIsLive(_ session: StoredSession) async throws -> Bool
    /// Presents the stored refresh token for the next generation.
    func rotate(_ session: StoredSession) async throws -> SessionTokens.Rotation
    /// Ends the session's family, or every session of its user with `everywhere`.
    func logOut(_ session: StoredSession, everywhere: Bool) async throws
    /// Changes the password of the session's user: every session is revoked and a new one returned.
    func changePassword(of session: StoredSession, current: String, new: String) async throws -> StoredSession
    /// Checks `password` against the user's (a wrong one counts toward the address's throttle).
    func confirmPassword(_ password: String, of user: AuthenticatedUser) async throws
    /// Whether the user still exists (a deleted user's session ends).
    func userExists(_ user: AuthenticatedUser) async throws -> Bool
}

/// The embedded app's authority: ``SessionTokens`` and the repository on this machine's database.
public struct LocalSessionAuthority: SessionAuthority {
    private let tokens: SessionTokens
    private let repository: any AuthStore
    private let secrets: any SecretGenerator

    public init(tokens: SessionTokens, repository: any AuthStore, secrets: any SecretGenerator) {
        self.tokens = tokens
        self.repository = repository
        self.secrets = secrets
    }

    public func logIn(email: String, password: String) async throws -> StoredSession {
        try await tokens.logIn(email: email, password: password)
    }

    /// Known, and its generation neither rotated nor revoked (the expiry is the caller's check).
    public func accessIsLive(_ session: StoredSession) async throws -> Bool {
        guard let record = try await repository.session(accessDigest: secrets.digest(session.accessToken)) else { return false }
        return record.revokedAt == nil && record.rotatedAt == nil
    }

    public func rotate(_ session: StoredSession) async throws -> SessionTokens.Rotation {
        try await tokens.rotate(refreshToken: session.refreshToken, email: session.email)
    }

    public func logOut(_ session: StoredSession, everywhere: Bool) async throws {
        try await tokens.logOut(
            try await tokens.session(refreshToken: session.refreshToken), user: AuthenticatedUser(id: session.userID, email: session.email),
            everywhere: everywhere)
    }

    public func changePassword(of session: StoredSession, current: String, new: String) async throws -> StoredSession {
        try await tokens.changePassword(of: AuthenticatedUser(id: session.userID, email: session.email), current: current, new: new)
    }

    public func confirmPassword(_ password: String, of user: AuthenticatedUser) async throws {
        try await tokens.confirmPassword(password, of: user)
    }

    public func userExists(_ user: AuthenticatedUser) async throws -> Bool {
        try await repository.user(id: user.id) != nil
    }
}
