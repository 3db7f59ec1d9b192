import AuthData
import AuthDomain
import AuthInterface
import Foundation
import SharedKit
import Testing

/// ``SessionManager`` over a ``SessionAuthority`` that is not this machine's database — what `moa`
/// composes as a client of `moa-server` — keeps its promises: the session file, one refresh for
/// many callers, and the end of the session when the authority says so.
@Suite("Auth: SessionManager over another authority")
struct SessionAuthorityTests {
    /// An authority that counts what it is asked, and takes a moment to rotate (as a server would).
    final class CountingAuthority: SessionAuthority {
        private let state = Locked((rotations: 0, endAfter: Int.max))
        var rotations: Int { state.withLock { $0.rotations } }
        func endSessionsAfter(_ rotations: Int) { state.withLock { $0.endAfter = rotations } }

        static func session(_ generation: Int, expiresIn seconds: TimeInterval, from now: Date) -> StoredSession {
            StoredSession(
                userID: UserID("u1"), email: "ada@moa.example", accessToken: "access-\(generation)", refreshToken: "refresh-\(generation)",
                accessExpiresAt: now.addingTimeInterval(seconds), refreshExpiresAt: now.addingTimeInterval(14 * 86_400))
        }

        func logIn(email: String, password: String) async throws -> StoredSession { Self.session(0, expiresIn: 900, from: Date()) }
        func accessIsLive(_ session: StoredSession) async throws -> Bool { true }
        func rotate(_ session: StoredSession) async throws -> SessionTokens.Rotation {
            try await Task.sleep(for: .milliseconds(50))
            let (count, ended) = state.withLock { state in
                state.rotations += 1
                return (state.rotations, state.rotations > state.endAfter)
            }
            return ended ? .ended : .rotated(Self.session(count, expiresIn: 900, from: Date()))
        }
        func logOut(_ session: StoredSession, everywhere: Bool) async throws {}
        func changePassword(of session: StoredSession, current: String, new: String) async throws -> StoredSession { session }
        func confirmPassword(_ password: String, of user: AuthenticatedUser) async throws {}
        func userExists(_ user: AuthenticatedUser) async throws -> Bool { true }
    }

    @Test func manyCallsRefusedAtOnceRefreshOnceAndAllRetryWithTheNewToken() async throws {
        let authority = CountingAuthority()
        let store = MemorySessionStore()
        let manager = SessionManager(authority: authority, store: store, clock: SystemWallClock())
        _ = try await manager.logIn(email: "ada@moa.example", password: "whatever it is")
        let rejected = try #require(try await manager.accessToken())

        // Twenty requests all got a 401 for the same token at the same moment.
        let fresh = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<20 { group.addTask { try await manager.accessToken(replacing: rejected) } }
            var tokens: [String?] = []
            for try await token in group { tokens.append(token) }
            return tokens
        }
        #expect(authority.rotations == 1)
        #expect(Set(fresh) == [store.current?.accessToken])
        #expect(fresh.first != rejected)
        // A token refused after the refresh was already done is answered from the file, with no new refresh.
        #expect(try await manager.accessToken(replacing: rejected) == store.current?.accessToken)
        #expect(authority.rotations == 1)
    }

    /// Two `moa` processes of one home (two managers on one session file) find the token expired at
    /// once: the file's lock lets one refresh, and the other uses what it saved — it never presents
    /// the same refresh token again, which the server would take for a stolen copy.
    @Test func twoProcessesOfOneHomeRefreshOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moa-session-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("session.json")
        let authority = CountingAuthority()
        try FileSessionStore(url: file).save(CountingAuthority.session(0, expiresIn: -1, from: Date()))
        let first = SessionManager(authority: authority, store: FileSessionStore(url: file), clock: SystemWallClock())
        let second = SessionManager(authority: authority, store: FileSessionStore(url: file), clock: SystemWallClock())
        async let a = first.accessToken()
        async let b = second.accessToken()
        let tokens = try await [a, b]
        #expect(authority.rotations == 1)
        #expect(tokens == ["access-1", "access-1"])
        #expect(try FileSessionStore(url: file).load()?.refreshToken == "refresh-1")
    }

    @Test func anExpiredTokenIsRefreshedBeforeItIsSentAndAnEndedSessionClearsTheFile() async throws {
        let authority = CountingAuthority()
        let store = MemorySessionStore()
        let manager = SessionManager(authority: authority, store: store, clock: SystemWallClock())
        try store.save(CountingAuthority.session(0, expiresIn: -1, from: Date()))
        #expect(try await manager.accessToken() == "access-1")
        #expect(authority.rotations == 1)

        authority.endSessionsAfter(1)
        #expect(try await manager.accessToken(replacing: "access-1") == nil)
        #expect(store.current == nil)
        #expect(try await manager.currentUser() == nil)
    }
}
