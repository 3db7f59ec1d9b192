import Foundation
import SharedKit

/// When a rate limit ends, as the API said: `x-ratelimit-reset` (epoch seconds) or `retry-after`
/// (seconds).
public struct RateLimitReset: Sendable, Equatable {
    public let resetAt: Date?
    public let retryAfterSeconds: Int?
    /// Whether a token was sent (without one, setting a token raises the limit).
    public let tokenSet: Bool

    public init(resetAt: Date?, retryAfterSeconds: Int?, tokenSet: Bool) {
        self.resetAt = resetAt
        self.retryAfterSeconds = retryAfterSeconds
        self.tokenSet = tokenSet
    }
}

/// Everything that can go wrong in a search, each one sentence a person can act on, with a stable
/// exit status. Never contains the token (only whether one was set).
public enum SearchError: Error, Equatable, LocalizedUserFacingError {
    // The input (checked before any request).
    case emptyQuery
    case invalidPage(Int)
    case invalidPerPage(Int)
    case beyondResultCap(page: Int, perPage: Int)
    case invalidLogin(String)
    case freeAndPaid
    case invalidDate(option: String, value: String)
    case invertedDates(from: Day, to: Day)
    // The API's answers.
    case badToken(tokenSet: Bool)
    case forbidden(String?)
    case rateLimited(RateLimitReset)
    case unknownUser(String)
    case notFound(path: String, baseURL: String)
    case invalidQuery(String?)
    case malformedResponse(String)
    case serverFailure(status: Int)
    case unexpectedStatus(Int)
    // Getting an answer at all.
    case timedOut(seconds: Double)
    case offline(baseURL: String)
    case invalidBaseURL(String)
    case transport(String)
    case cancelled

    /// `GitHub returns at most the first 1,000 results; narrow the query.`
    public static let capSentence = LocalizedText(
        en: "GitHub returns at most the first 1,000 results; narrow the query",
        ko: "GitHub는 검색 결과를 처음 1,000개까지만 돌려줍니다. 검색어를 좁히세요")

    public var localizedMessage: LocalizedText {
        switch self {
        case .emptyQuery:
            LocalizedText(
                en: "The search query is empty: give at least one word, e.g. `moa search users swift`.",
                ko: "검색어가 비어 있습니다. 예: `moa search users swift`.")
        case .invalidPage(let page):
            LocalizedText(en: "The page must be 1 or more, not \(page).", ko: "페이지는 1 이상이어야 합니다(\(page)).")
        case .invalidPerPage(let size):
            LocalizedText(en: "--per-page must be from 1 to 100, not \(size).", ko: "--per-page는 1부터 100까지입니다(\(size)).")
        case .beyondResultCap(let page, let perPage):
            LocalizedText(
                en:
                    "\(Self.capSentence.en) (page \(page) at \(perPage) per page starts at result \(Self.grouped((page - 1) * perPage + 1))).",
                ko: "\(Self.capSentence.ko) (\(perPage)개씩 \(page)쪽은 \(Self.grouped((page - 1) * perPage + 1))번째 결과부터입니다).")
        case .invalidLogin(let text):
            LocalizedText(
                en: "“\(text)” is not a user login: use letters, digits and hyphens (e.g. octocat).",
                ko: "“\(text)”은(는) 사용자 로그인이 아닙니다. 영문자, 숫자, 하이픈을 쓰세요(예: octocat).")
        case .freeAndPaid:
            LocalizedText(
                en: "--free and --paid exclude each other: give one of them, or neither for both.",
                ko: "--free와 --paid는 함께 쓸 수 없습니다. 하나만 쓰거나, 둘 다 보려면 모두 빼세요.")
        case .invalidDate(let option, let value):
            LocalizedText(
                en: "\(option) “\(value)” is not a date: write it as YYYY-MM-DD, e.g. 2025-05-01.",
                ko: "\(option) “\(value)”은(는) 날짜가 아닙니다. YYYY-MM-DD로 쓰세요(예: 2025-05-01).")
        case .invertedDates(let from, let to):
            LocalizedText(
                en: "--from \(from) is after --to \(to): no day is in that range.",
                ko: "--from \(from)이(가) --to \(to)보다 늦습니다.")
        case .badToken(let tokenSet):
            tokenSet
                ? LocalizedText(
                    en: "The search API refused the access token (HTTP 401): it is wrong, expired or revoked.",
                    ko: "검색 API가 액세스 토큰을 거부했습니다(HTTP 401). 틀렸거나 만료되었거나 폐기된 토큰입니다.")
                : LocalizedText(
                    en: "The search API requires an access token (HTTP 401), and none is set.",
                    ko: "검색 API에 액세스 토큰이 필요한데(HTTP 401) 설정되어 있지 않습니다.")
        case .forbidden(let detail):
            LocalizedText(
                en: "The search API refused the request (HTTP 403)\(Self.suffix(detail)).",
                ko: "검색 API가 요청을 거부했습니다(HTTP 403)\(Self.suffix(detail)).")
        case .rateLimited(let reset):
            Self.rateLimitMessage(reset)
        case .unknownUser(let login):
            LocalizedText(en: "There is no user “\(login)”.", ko: "사용자 “\(login)”이(가) 없습니다.")
        case .notFound(let path, let baseURL):
            LocalizedText(
                en: "The search API at \(baseURL) has no \(path) (HTTP 404).",
                ko: "\(baseURL)의 검색 API에 \(path)가 없습니다(HTTP 404).")
        case .invalidQuery(let detail):
            LocalizedText(
                en: "The search API refused the query (HTTP 422)\(Self.suffix(detail)).",
                ko: "검색 API가 검색어를 거부했습니다(HTTP 422)\(Self.suffix(detail)).")
        case .malformedResponse(let detail):
            LocalizedText(
                en: "The search API sent a response that could not be read: \(Self.trimmed(detail)).",
                ko: "검색 API의 응답을 읽을 수 없습니다: \(Self.trimmed(detail)).")
        case .serverFailure(let status):
            LocalizedText(en: "The search API failed on its side (HTTP \(status)).", ko: "검색 API 서버 쪽에서 실패했습니다(HTTP \(status)).")
        case .unexpectedStatus(let status):
            LocalizedText(
                en: "The search API answered with an unexpected HTTP status \(status).",
                ko: "검색 API가 예상하지 못한 HTTP 상태 \(status)로 응답했습니다.")
        case .timedOut(let seconds):
            LocalizedText(
                en: "The search API did not answer within \(Self.seconds(seconds)).",
                ko: "검색 API가 \(Self.number(seconds))초 안에 응답하지 않았습니다.")
        case .offline(let baseURL):
            LocalizedText(en: "Could not connect to the search API at \(baseURL).", ko: "\(baseURL)의 검색 API에 연결할 수 없습니다.")
        case .invalidBaseURL(let url):
            LocalizedText(
                en: "The search API address “\(url)” is not an http or https URL.",
                ko: "검색 API 주소 “\(url)”은(는) http 또는 https URL이 아닙니다.")
        case .transport(let detail):
            LocalizedText(
                en: "The request to the search API failed: \(Self.trimmed(detail)).",
                ko: "검색 API 요청이 실패했습니다: \(Self.trimmed(detail)).")
        case .cancelled:
            LocalizedText(en: "The search was cancelled.", ko: "검색이 취소되었습니다.")
        }
    }

    public var message: String { localizedMessage.en }

    public var hint: String? {
        switch self {
        case .beyondResultCap:
            "Add qualifiers such as `location:seoul` or `followers:>100`, or use --sort."
        case .badToken(let tokenSet):
            tokenSet
                ? "Set a valid token with `moa settings set search.api-token …`, or remove it with `moa settings reset search.api-token`."
                : "Set one with `moa settings set search.api-token …`."
        case .forbidden:
            "Check the access token's permissions (`moa settings set search.api-token …`)."
        case .rateLimited(let reset):
            reset.tokenSet ? nil : "An access token raises the limit: `moa settings set search.api-token …`."
        case .notFound:
            "Check `search.api-base-url`: it must be the API root, e.g. https://api.github.com."
        case .invalidQuery:
            "See https://docs.github.com/search-github/searching-on-github/searching-users for the query syntax."
        case .timedOut, .serverFailure, .cancelled:
            "Try again later."
        case .offline:
            "Check your network connection and `search.api-base-url` (`moa settings get search.api-base-url`)."
        case .invalidBaseURL:
            "Set it with `moa settings set search.api-base-url https://api.github.com`."
        default:
            nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .emptyQuery, .invalidPage, .invalidPerPage, .beyondResultCap, .freeAndPaid, .invertedDates:
            .usage
        case .badToken, .forbidden:
            .noPermission
        case .rateLimited, .timedOut, .serverFailure, .cancelled:
            .temporaryFailure
        case .unknownUser, .notFound, .offline, .transport, .unexpectedStatus:
            .unavailable
        case .invalidQuery, .malformedResponse, .invalidDate, .invalidLogin:
            .dataError
        case .invalidBaseURL:
            .configuration
        }
    }

    // MARK: Wording helpers

    /// `1,000`, `3,450`: digits grouped by three, whatever the locale.
    public static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return number < 0 ? "-" + result : result
    }

    /// A local time for messages: `10:00:00 local time (2026-01-01, UTC+09:00)`.
    public static func localTime(_ date: Date, in timeZone: TimeZone = .current) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "HH:mm:ss"
        let time = formatter.string(from: date)
        formatter.dateFormat = "yyyy-MM-dd"
        let offset = timeZone.secondsFromGMT(for: date)
        let zone = String(format: "UTC%@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 3600, abs(offset) % 3600 / 60)
        return "\(time) local time (\(formatter.string(from: date)), \(zone))"
    }

    private static func rateLimitMessage(_ reset: RateLimitReset) -> LocalizedText {
        if let seconds = reset.retryAfterSeconds {
            let wait = seconds == 1 ? "1 second" : "\(grouped(seconds)) seconds"
            return LocalizedText(
                en: "The search API's rate limit is exhausted: try again in \(wait).",
                ko: "검색 API 호출 한도를 다 썼습니다. \(grouped(seconds))초 뒤에 다시 시도하세요.")
        }
        if let date = reset.resetAt {
            return LocalizedText(
                en: "The search API's rate limit is exhausted until \(localTime(date)).",
                ko: "검색 API 호출 한도를 다 썼습니다. \(localTime(date).replacingOccurrences(of: " local time", with: ""))에 다시 열립니다.")
        }
        return LocalizedText(
            en: "The search API's rate limit is exhausted: try again later.",
            ko: "검색 API 호출 한도를 다 썼습니다. 나중에 다시 시도하세요.")
    }

    private static func suffix(_ detail: String?) -> String {
        guard let detail = detail.map(trimmed), !detail.isEmpty else { return "" }
        return ": " + detail
    }

    private static func trimmed(_ text: String) -> String {
        var text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }

    private static func seconds(_ value: Double) -> String {
        value == 1 ? "1 second" : "\(number(value)) seconds"
    }

    /// `15`, `0.3`, `2.5`: at most one decimal.
    private static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10))" : String(format: "%.1f", tenths / 10)
    }
}
