import Foundation
import SearchInterface
import SettingsInterface

/// Searches users and shows one, on the API configured in Settings (read at each request, so a
/// `moa settings set search.api-base-url …` applies at once). Validates the input before any
/// request: an empty query, a page below 1, a page size outside 1…100, a page past the API's
/// 1,000-result cap and a malformed login are refused without a network round trip.
public struct UserSearchService: UserProfileLookup {
    /// The API's largest page.
    public static let maxPerPage = 100

    private let settings: any SettingsReader
    private let repository: any UserSearchStore
    private let vault: (any SearchTokenVault)?

    /// - Parameter vault: where `moa search login` keeps its token, sent when `search.api-token` is unset.
    public init(settings: any SettingsReader, repository: any UserSearchStore, vault: (any SearchTokenVault)? = nil) {
        self.settings = settings
        self.repository = repository
        self.vault = vault
    }

    /// The API and the token to send: `search.api-token` when set, else the login's.
    private func access(_ api: SearchAPISettings) throws -> SearchAPIAccess {
        SearchAPIAccess(baseURL: api.baseURL, token: try GitHubLogin.token(settings: api, vault: vault))
    }

    /// One page of users matching `query`. `perPage` defaults to the `display.page-size` setting
    /// (at most 100).
    public func search(_ query: String, page: Int = 1, perPage: Int? = nil, sort: UserSearchSort? = nil) async throws -> UserSearchPage {
        let query = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !query.isEmpty else { throw SearchError.emptyQuery }
        guard page >= 1 else { throw SearchError.invalidPage(page) }
        if let perPage, !(1...Self.maxPerPage).contains(perPage) { throw SearchError.invalidPerPage(perPage) }
        let snapshot = try await settings.snapshot()
        let size = perPage ?? min(max(snapshot.pageSize, 1), Self.maxPerPage)
        guard (page - 1) * size < UserSearchPage.resultCap else { throw SearchError.beyondResultCap(page: page, perPage: size) }
        let request = UserSearchRequest(query: query, page: page, perPage: size, sort: sort)
        return try await repository.searchUsers(request, access: try access(snapshot.searchAPI))
    }

    /// The user `login` (a leading `@` is ignored), from the cache when it is fresh.
    public func user(_ login: String) async throws -> FetchedUser {
        let login = try Self.validLogin(login)
        let snapshot = try await settings.snapshot()
        return try await repository.user(login: login, access: try access(snapshot.searchAPI))
    }

    public func profile(login: String) async throws -> UserProfile {
        try await user(login).profile
    }

    /// GitHub logins are letters, digits and hyphens; compatible servers also allow `_` and `.`.
    static func validLogin(_ text: String) throws(SearchError) -> String {
        var login = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        if login.hasPrefix("@") { login = login.dropFirst() }
        guard isLogin(login) else { throw .invalidLogin(text) }
        return String(login)
    }

    /// Whether `login` is one, exactly as given (what the API answered, or what a person typed once
    /// trimmed): 1 to 100 ASCII letters, digits, `-`, `_` and `.`, and not `.` or `..`.
    public static func isLogin(_ login: some StringProtocol) -> Bool {
        (1...100).contains(login.count)
            && login.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") })
            && login != "." && login != ".."
    }
}
