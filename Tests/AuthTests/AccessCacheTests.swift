import AuthDomain
import AuthInterface
import Foundation
import SharedKit
import Testing

/// What a server's ``AccessCache`` promises: a live token lets requests in without a read, a
/// revocation through this server stops it at once, one through another server within the cache's
/// lifetime, and never past the token's own expiry.
@Suite("A server's access cache")
struct AccessCacheTests {
    static let email = "ada@example.com"

    /// A server's token use cases on the harness's database, with its own cache.
    func server(_ harness: AuthHarness, _ cache: AccessCache) -> SessionTokens {
        SessionTokens(
            repository: ForgettingAuthStore(harness.repository, cache: cache), hasher: harness.hasher, secrets: harness.secrets,
            clock: harness.clock, inbox: harness.inbox, origin: FixedOrigin(address: "192.0.2.10"), accessCache: cache)
    }

    func user(_ session: StoredSession) -> AuthenticatedUser { AuthenticatedUser(id: session.userID, email: session.email) }

    @Test func aLiveTokenIsRememberedAndALogoutThroughThisServerStopsItAtOnce() async throws {
        let harness = try AuthHarness()
        try await harness.verifiedUser(Self.email)
        let cache = AccessCache()
        let tokens = server(harness, cache)
        let session = try await tokens.logIn(email: Self.email, password: AuthHarness.password)
        #expect(try await tokens.liveUser(accessToken: session.accessToken)?.user.email == Self.email)
        #expect(cache.count == 1)
        // Remembered: the database is not asked again (its row gone, the token still passes).
        try await harness.database.write { try $0.execute(sql: "UPDATE auth_sessions SET access_digest = 'elsewhere'") }
        #expect(try await tokens.liveUser(accessToken: session.accessToken) != nil)

        try await tokens.logOut(try await tokens.session(refreshToken: session.refreshToken), user: user(session), everywhere: false)
        #expect(try await tokens.liveUser(accessToken: session.accessToken) == nil)
        #expect(cache.count == 0)
    }

    @Test func aRefreshThroughThisServerRetiresThePreviousAccessTokenAtOnce() async throws {
        let harness = try AuthHarness()
        try await harness.verifiedUser(Self.email)
        let tokens = server(harness, AccessCache())
        let first = try await tokens.logIn(email: Self.email, password: AuthHarness.password)
        #expect(try await tokens.liveUser(accessToken: first.accessToken) != nil)
        guard case .rotated(let next) = try await tokens.rotate(refreshToken: first.refreshToken) else {
            Issue.record("the refresh token did not rotate")
            return
        }
        #expect(try await tokens.liveUser(accessToken: first.accessToken) == nil)
        #expect(try await tokens.liveUser(accessToken: next.accessToken)?.user.email == Self.email)
    }

    @Test func aLogoutThroughAnotherServerStopsTheTokenHereWithinTheLifetime() async throws {
        let harness = try AuthHarness()
        try await harness.verifiedUser(Self.email)
        let here = server(harness, AccessCache())
        let elsewhere = server(harness, AccessCache())
        let uncached = harness.tokens(from: "192.0.2.11")
        let session = try await here.logIn(email: Self.email, password: AuthHarness.password)
        #expect(try await here.liveUser(accessToken: session.accessToken) != nil)

        try await elsewhere.logOut(nil, user: user(session), everywhere: true)
        #expect(try await uncached.liveUser(accessToken: session.accessToken) == nil, "the database says revoked")
        harness.clock.advance(by: AccessCache.lifetime - 0.001)
        #expect(try await here.liveUser(accessToken: session.accessToken) != nil, "remembered, within the lifetime")
        harness.clock.advance(by: 0.001)
        #expect(try await here.liveUser(accessToken: session.accessToken) == nil, "read again once the lifetime is over")
    }

    @Test func aRememberedTokenIsNeverUsedPastItsExpiry() async throws {
        let harness = try AuthHarness()
        try await harness.verifiedUser(Self.email)
        let tokens = server(harness, AccessCache(lifetime: 365 * 86_400))
        let session = try await tokens.logIn(email: Self.email, password: AuthHarness.password)
        #expect(try await tokens.liveUser(accessToken: session.accessToken) != nil)
        harness.clock.set(session.accessExpiresAt)
        #expect(try await tokens.liveUser(accessToken: session.accessToken) == nil)
    }

    @Test func theCacheHoldsAtMostItsCapacityAndEveryTokenStillPasses() async throws {
        let harness = try AuthHarness()
        let cache = AccessCache(capacity: 2)
        let tokens = server(harness, cache)
        var sessions: [StoredSession] = []
        for n in 0..<5 {
            try await harness.verifiedUser("user\(n)@example.com")
            sessions.append(try await tokens.logIn(email: "user\(n)@example.com", password: AuthHarness.password))
        }
        for session in sessions {
            #expect(try await tokens.liveUser(accessToken: session.accessToken)?.user.email == session.email)
            #expect(cache.count <= 2)
        }
    }

    @Test func deletingTheUserForgetsTheirTokens() async throws {
        let harness = try AuthHarness()
        try await harness.verifiedUser(Self.email)
        let cache = AccessCache()
        let tokens = server(harness, cache)
        let session = try await tokens.logIn(email: Self.email, password: AuthHarness.password)
        #expect(try await tokens.liveUser(accessToken: session.accessToken) != nil)
        let deletion = AccountDeletion(
            sessions: Acting(user: user(session)), repository: ForgettingAuthStore(harness.repository, cache: cache), store: nil,
            unitOfWork: harness.database, owners: [])
        _ = try await deletion.delete(confirmation: Self.email)
        #expect(cache.count == 0)
        #expect(try await tokens.liveUser(accessToken: session.accessToken) == nil)
    }
}

/// A server's request user, fixed.
private struct Acting: SessionProvider {
    let user: AuthenticatedUser
    func currentUser() async throws -> AuthenticatedUser? { user }
}
