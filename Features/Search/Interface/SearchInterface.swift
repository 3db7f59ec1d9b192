import Foundation
import Registry
import SharedKit

// What other features may use of Search: a GitHub-compatible user profile and a way to look one up.
// (Search itself uses Settings' `SettingsReader` and Archive's `EventCatalogue`, never their internals.)

/// A user of a GitHub-compatible API (`GET /users/{login}`), as other features see it.
public struct UserProfile: Sendable, Hashable, Codable {
    public let login: String
    public let id: Int64
    /// `User` or `Organization`.
    public let type: String
    public let name: String?
    public let company: String?
    public let blog: String?
    public let location: String?
    public let email: String?
    public let bio: String?
    public let publicRepos: Int?
    public let followers: Int?
    public let following: Int?
    public let createdAt: Date?
    public let htmlURL: URL?
    public let avatarURL: URL?

    public init(
        login: String, id: Int64, type: String, name: String? = nil, company: String? = nil, blog: String? = nil,
        location: String? = nil, email: String? = nil, bio: String? = nil, publicRepos: Int? = nil,
        followers: Int? = nil, following: Int? = nil, createdAt: Date? = nil, htmlURL: URL? = nil, avatarURL: URL? = nil
    ) {
        self.login = login
        self.id = id
        self.type = type
        self.name = name
        self.company = company
        self.blog = blog
        self.location = location
        self.email = email
        self.bio = bio
        self.publicRepos = publicRepos
        self.followers = followers
        self.following = following
        self.createdAt = createdAt
        self.htmlURL = htmlURL
        self.avatarURL = avatarURL
    }
}

/// Looks a user up by login on the configured search API (cached; revalidated with ETags).
///
/// Throws a `UserFacingError` (unknown user: exit status 69; rate limit: 75; bad token: 77; …).
public protocol UserProfileLookup: Sendable {
    func profile(login: String) async throws -> UserProfile
}

public enum UserProfileLookupKey: ServiceKey { public typealias Service = any UserProfileLookup }
