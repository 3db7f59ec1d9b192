import SearchInterface
import SharedKit

/// A `UserProfileLookup` for other features' tests and Examples: profiles you add, and every login
/// asked for. An unknown login throws ``FakeUserProfileLookup/UnknownUser``.
public final class FakeUserProfileLookup: UserProfileLookup {
    public struct UnknownUser: Error, Equatable {
        public let login: String
    }

    private struct State {
        var profiles: [String: UserProfile] = [:]
        var asked: [String] = []
    }

    private let state = Locked(State())

    public init(_ profiles: [UserProfile] = [FakeUserProfileLookup.octocat]) {
        state.withLock { state in
            for profile in profiles { state.profiles[profile.login.lowercased()] = profile }
        }
    }

    /// GitHub's mascot, as `/users/octocat` describes it.
    public static let octocat = UserProfile(
        login: "octocat", id: 583_231, type: "User", name: "The Octocat", company: "@github",
        blog: "https://github.blog", location: "San Francisco", publicRepos: 8, followers: 9_999,
        following: 9)

    public func add(_ profile: UserProfile) {
        state.withLock { $0.profiles[profile.login.lowercased()] = profile }
    }

    /// Every login asked for, in order.
    public var asked: [String] { state.withLock { $0.asked } }

    public func profile(login: String) async throws -> UserProfile {
        try state.withLock { state throws(UnknownUser) in
            state.asked.append(login)
            guard let profile = state.profiles[login.lowercased()] else { throw UnknownUser(login: login) }
            return profile
        }
    }
}
