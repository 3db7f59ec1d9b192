import Foundation
import Networking
import SearchDomain
import SearchInterface

/// The GitHub REST contract of the user search: requests, response bodies, and what each status
/// means. Pure functions over ``Endpoint`` and ``HTTPResponse``, so every rule is unit-testable.
enum GitHubAPI {
    /// The REST API version this client was written against.
    static let apiVersion = "2022-11-28"

    /// What every request carries: the media type, the API version, who we are, and the token as
    /// `Authorization: Bearer` only when one is set (never in a URL, never in a log: the client's
    /// logger redacts `Authorization`).
    static func headers(access: SearchAPIAccess, userAgent: String) -> HTTPHeaders {
        var headers: HTTPHeaders = [
            "Accept": "application/vnd.github+json",
            "User-Agent": userAgent,
            "X-GitHub-Api-Version": apiVersion,
        ]
        if let token = access.token { headers["Authorization"] = "Bearer \(token)" }
        return headers
    }

    /// `GET /search/users?q=…&page=…&per_page=…[&sort=…&order=desc]`
    static func searchUsers(_ request: UserSearchRequest, access: SearchAPIAccess, userAgent: String, timeout: TimeInterval) -> Endpoint {
        var query = [
            URLQueryItem(name: "q", value: request.query),
            URLQueryItem(name: "page", value: String(request.page)),
            URLQueryItem(name: "per_page", value: String(request.perPage)),
        ]
        if let sort = request.sort {
            query += [URLQueryItem(name: "sort", value: sort.rawValue), URLQueryItem(name: "order", value: "desc")]
        }
        return Endpoint(
            .get, pathSegments: ["search", "users"], query: query,
            headers: headers(access: access, userAgent: userAgent), timeout: timeout)
    }

    /// `GET /users/{login}`
    static func user(_ login: String, access: SearchAPIAccess, userAgent: String, timeout: TimeInterval) -> Endpoint {
        Endpoint(.get, pathSegments: ["users", login], headers: headers(access: access, userAgent: userAgent), timeout: timeout)
    }

    // MARK: Bodies

    // The bodies' names appear in decoding errors ("missing key "login" at items[0] of
    // UserSearchResult"), and their keys are the wire names, so a message points at the JSON as sent.

    struct UserSearchResult: Decodable {
        struct Item: Decodable {
            let login: String
            let id: Int64
            let type: String?
            let score: Double?
            let htmlUrl: String?
            let avatarUrl: String?

            enum CodingKeys: String, CodingKey {
                case login, id, type, score
                case htmlUrl = "html_url"
                case avatarUrl = "avatar_url"
            }
        }

        let totalCount: Int
        let incompleteResults: Bool?
        let items: [Item]

        enum CodingKeys: String, CodingKey {
            case totalCount = "total_count"
            case incompleteResults = "incomplete_results"
            case items
        }
    }

    struct UserDetails: Decodable {
        let login: String
        let id: Int64
        let type: String?
        let name: String?
        let company: String?
        let blog: String?
        let location: String?
        let email: String?
        let bio: String?
        let publicRepos: Int?
        let followers: Int?
        let following: Int?
        let createdAt: String?
        let htmlUrl: String?
        let avatarUrl: String?

        enum CodingKeys: String, CodingKey {
            case login, id, type, name, company, blog, location, email, bio, followers, following
            case publicRepos = "public_repos"
            case createdAt = "created_at"
            case htmlUrl = "html_url"
            case avatarUrl = "avatar_url"
        }

        var profile: UserProfile {
            UserProfile(
                login: login, id: id, type: type ?? "User", name: nonEmpty(name), company: nonEmpty(company),
                blog: nonEmpty(blog), location: nonEmpty(location), email: nonEmpty(email), bio: nonEmpty(bio),
                publicRepos: publicRepos, followers: followers, following: following,
                createdAt: createdAt.flatMap(GitHubAPI.date), htmlURL: htmlUrl.flatMap(URL.init(string:)),
                avatarURL: avatarUrl.flatMap(URL.init(string:)))
        }
    }

    /// The error body: `{"message": "Validation Failed", "errors": [{"message": "…"}]}`.
    struct ErrorBody: Decodable {
        struct Detail: Decodable {
            let message: String?
            let code: String?
            let field: String?
        }

        let message: String?
        let errors: [Detail]?

        /// The message and each detail, as one phrase.
        var summary: String? {
            let details = (errors ?? []).compactMap { detail -> String? in
                if let message = detail.message, !message.isEmpty { return message }
                guard let code = detail.code else { return nil }
                return detail.field.map { "\($0) is \(code)" } ?? code
            }
            let parts = ([message].compactMap { $0 } + details).filter { !$0.isEmpty }
            return parts.isEmpty ? nil : parts.joined(separator: " — ")
        }
    }

    static let decoder = JSONDecoder()

    static func decodeUser(_ response: HTTPResponse) throws(SearchError) -> UserProfile {
        do {
            return try response.decode(UserDetails.self, using: decoder).profile
        } catch {
            throw SearchError.malformedResponse(Self.detail(of: error))
        }
    }

    static func decodePage(_ response: HTTPResponse, request: UserSearchRequest, baseURL: URL) throws(SearchError) -> UserSearchPage {
        let body: UserSearchResult
        do {
            body = try response.decode(UserSearchResult.self, using: decoder)
        } catch {
            throw SearchError.malformedResponse(Self.detail(of: error))
        }
        let links = response.links(relativeTo: baseURL)
        let users = body.items.map { item in
            UserHit(
                login: item.login, id: item.id, type: item.type ?? "User", score: item.score,
                htmlURL: item.htmlUrl.flatMap(URL.init(string:)), avatarURL: item.avatarUrl.flatMap(URL.init(string:)))
        }
        return UserSearchPage(
            request: request, totalCount: max(0, body.totalCount), incompleteResults: body.incompleteResults ?? false,
            users: users, nextPage: links["next"].flatMap(page(of:)), lastPage: links["last"].flatMap(page(of:)))
    }

    /// The `page` query item of a `Link` target.
    static func page(of url: URL) -> Int? {
        URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems?.first { $0.name == "page" }?.value.flatMap { Int($0) }
    }

    /// `max-age` of `Cache-Control` (GitHub sends `private, max-age=60, s-maxage=60`); `no-cache`
    /// and `no-store` mean 0 (always revalidate).
    static func maxAge(_ response: HTTPResponse) -> TimeInterval? {
        guard let value = response.headers["Cache-Control"]?.lowercased() else { return nil }
        var maxAge: TimeInterval?
        for directive in value.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if directive == "no-cache" || directive == "no-store" { return 0 }
            if directive.hasPrefix("max-age="), let seconds = Int(directive.dropFirst("max-age=".count)) {
                maxAge = TimeInterval(max(0, seconds))
            }
        }
        return maxAge
    }

    // MARK: Errors

    /// What a non-2xx answer means, for a request about `login` (nil: the search).
    static func error(for response: HTTPResponse, login: String?, access: SearchAPIAccess, path: String, now: Date) -> SearchError {
        let detail = (try? response.decode(ErrorBody.self, using: decoder))?.summary
        switch response.status {
        case 401:
            return .badToken(tokenSet: access.token != nil)
        case 403, 429:
            if response.status == 429 || isRateLimit(response, detail: detail) {
                return .rateLimited(rateLimit(response, tokenSet: access.token != nil, now: now))
            }
            return .forbidden(detail)
        case 404:
            if let login { return .unknownUser(login) }
            return .notFound(path: path, baseURL: Redactor.redact(access.baseURL))
        case 400, 422:
            return .invalidQuery(detail)
        case 500...599:
            return .serverFailure(status: response.status)
        default:
            return .unexpectedStatus(response.status)
        }
    }

    /// A 403 is a rate limit when the remaining quota is 0, a `retry-after` is given (secondary
    /// limits), or the message says so.
    static func isRateLimit(_ response: HTTPResponse, detail: String?) -> Bool {
        response.headers["x-ratelimit-remaining"]?.trimmingCharacters(in: .whitespaces) == "0"
            || response.headers.contains("retry-after")
            || (detail?.lowercased().contains("rate limit") ?? false)
    }

    /// The reset time: `retry-after` (seconds, or an HTTP date) wins over `x-ratelimit-reset` (epoch seconds).
    static func rateLimit(_ response: HTTPResponse, tokenSet: Bool, now: Date) -> RateLimitReset {
        var retryAfter: Int?
        if let value = response.headers["retry-after"]?.trimmingCharacters(in: .whitespaces) {
            if let seconds = Int(value) {
                retryAfter = max(0, seconds)
            } else if let date = httpDate(value) {
                retryAfter = max(0, Int(date.timeIntervalSince(now).rounded(.up)))
            }
        }
        let resetAt = response.headers["x-ratelimit-reset"]
            .flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            .map { Date(timeIntervalSince1970: $0) }
        return RateLimitReset(resetAt: resetAt, retryAfterSeconds: retryAfter, tokenSet: tokenSet)
    }

    /// A failure to get an answer at all.
    static func error(for error: NetworkError, access: SearchAPIAccess, timeout: TimeInterval) -> SearchError {
        switch error {
        case .offline: .offline(baseURL: Redactor.redact(access.baseURL))
        case .timedOut: .timedOut(seconds: timeout)
        case .invalidURL(let url): .invalidBaseURL(url.isEmpty ? Redactor.redact(access.baseURL) : url)
        case .cancelled: .cancelled
        case .transport(let detail): .transport(detail)
        case .decoding(let detail): .malformedResponse(detail)
        case .httpStatus(let status, _): .unexpectedStatus(status)
        }
    }

    /// The detail of a decoding failure (``NetworkError/decoding(_:)`` says what was wrong where).
    private static func detail(of error: NetworkError) -> String {
        if case .decoding(let detail) = error { return detail }
        return error.message
    }

    // MARK: Dates

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    /// An IMF-fixdate (`Wed, 21 Oct 2015 07:28:00 GMT`).
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}

private func nonEmpty(_ text: String?) -> String? {
    guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
    return text
}
