import ArchiveInterface
import Foundation
import SharedKit

/// Archive's refusals of tickets, queries and options.
public enum ArchiveError: Error, UserFacingError, Equatable {
    case unknownEvent(String)
    case eventNotStarted(title: String, startsOn: Day)
    case attendedInFuture(Day, today: Day)
    case attendedOutsideRun(Day, title: String, startsOn: Day, endsOn: Day)
    case alreadyArchived(title: String, on: Day)
    /// The most tickets one person may keep on a server.
    case tooManyTickets(limit: Int)
    case invalidRating(Int)
    case memoTooLong(Int)
    /// A control or bidirectional formatting character in the memo (the first one).
    case memoCharacter(Unicode.Scalar)
    case invalidText(field: String, value: String, limit: Int)
    case invalidDate(field: String, value: String)
    case invalidDateRange(from: Day, to: Day)
    case unknownTicket(String)
    case ambiguousTicket(String, matches: Int)
    case invalidLimit(Int, range: ClosedRange<Int>)
    case invalidRowRange(from: Int, to: Int?)
    case invalidPage(Int)
    case invalidPerPage(Int, max: Int)
    case cannotWrite(path: String, reason: String)
    /// 0 or more than 3 values in `--districts` / `--categories` (`available`: the categories to list).
    case preferenceCount(kind: PreferenceKind, count: Int, available: [String])
    case duplicatePreference(kind: PreferenceKind, value: String)
    case unknownDistrict(String)
    case unknownCategory(String, available: [String])
    case ambiguousCategory(String, matches: [String])
    public static let memoLimit = 500

    public var message: String {
        switch self {
        case .unknownEvent(let id): "No event “\(id)” in the catalogue."
        case .eventNotStarted(let title, let startsOn): "“\(title)” starts on \(startsOn): you can archive it once you have been."
        case .attendedInFuture(let day, let today): "\(day) is in the future (today is \(today)): archive events you attended."
        case .attendedOutsideRun(let day, let title, let startsOn, let endsOn):
            "“\(title)” ran from \(startsOn) to \(endsOn), not on \(day)."
        case .alreadyArchived(let title, let day): "You already archived “\(title)” on \(day)."
        case .invalidRating(let rating): "A rating is from 1 to 5, not \(rating)."
        case .memoTooLong(let count): "The memo has \(count) characters; the most is \(Self.memoLimit)."
        case .memoCharacter(let scalar):
            "A memo cannot hold control or bidirectional formatting characters, and this one has \(String(format: "U+%04X", scalar.value))."
        case .invalidText(let field, let value, let limit):
            value.isEmpty
                ? "The \(field) must not be empty." : "“\(value)” is not a usable \(field): use 1 to \(limit) characters on one line."
        case .invalidDate(let field, let value): "“\(value)” is not a date for \(field): use YYYY-MM-DD."
        case .invalidDateRange(let from, let to): "--from \(from) is after --to \(to)."
        case .unknownTicket(let reference): "You have no ticket “\(reference)”."
        case .ambiguousTicket(let reference, let matches): "“\(reference)” matches \(matches) of your tickets: give more of its id."
        case .tooManyTickets(let limit): "You have \(limit) tickets, the most one person may keep."
        case .invalidLimit(let limit, let range): "The limit must be from \(range.lowerBound) to \(range.upperBound), not \(limit)."
        case .invalidRowRange(let from, let to):
            if let to {
                "Rows \(from)…\(to) are not a range: --from must be at least 1 and --to at least --from."
            } else {
                "--from must be at least 1, not \(from)."
            }
        case .invalidPage(let page): "--page must be 1 or more, not \(page)."
        case .invalidPerPage(let perPage, let max): "--per-page must be from 1 to \(max), not \(perPage)."
        case .cannotWrite(let path, let reason): "Could not write \(path): \(reason)."
        case .preferenceCount(let kind, let count, _):
            count == 0
                ? "Choose at least one \(kind.singular) with \(kind.option) (up to 3, comma-separated)."
                : "Choose at most 3 \(kind.rawValue) with \(kind.option), not \(count)."
        case .duplicatePreference(let kind, let value): "\(value) is listed twice in \(kind.option)."
        case .unknownDistrict(let value): "“\(value)” is not one of Seoul's 25 districts."
        case .unknownCategory(let value, _): "“\(value)” is not one of the catalogue's categories."
        case .ambiguousCategory(let value, let matches):
            "“\(value)” matches \(matches.count) categories (\(matches.joined(separator: ", "))): give one in full."
        }
    }

    public var hint: String? {
        switch self {
        case .unknownEvent:
            "Find event ids with `moa archive events`, or add a ticket by hand with --title, --category, --region and --date."
        case .unknownTicket, .ambiguousTicket: "See your tickets and their ids with `moa archive list`."
        case .alreadyArchived: "Give another --attended date if you went again."
        case .tooManyTickets: "Remove some with `moa archive remove`, or export them first with `moa archive export`."
        case .preferenceCount(.districts, _, _), .duplicatePreference(.districts, _), .unknownDistrict:
            "Seoul's districts: \(SeoulDistricts.choices)."
        case .preferenceCount(.categories, _, let available), .unknownCategory(_, let available):
            available.isEmpty
                ? "See the categories with `moa archive preferences choices`."
                : "Categories: \(available.joined(separator: ", "))."
        case .duplicatePreference(.categories, _), .ambiguousCategory: "See the categories with `moa archive preferences choices`."
        default: nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .unknownEvent, .unknownTicket: .unavailable
        case .eventNotStarted, .alreadyArchived, .tooManyTickets: .refused
        case .invalidLimit, .invalidRating, .invalidRowRange, .invalidDateRange, .invalidPage, .invalidPerPage, .preferenceCount: .usage
        case .duplicatePreference, .unknownDistrict, .unknownCategory, .ambiguousCategory: .dataError
        case .cannotWrite: .ioError
        case .attendedInFuture, .attendedOutsideRun, .memoTooLong, .memoCharacter, .invalidText, .invalidDate, .ambiguousTicket: .dataError
        }
    }
}

/// Why an import could not run at all. Nothing is written in any of these cases.
public enum ArchiveImportError: Error, UserFacingError, Equatable {
    case fileNotFound(String)
    case unreadable(String, reason: String)
    /// Not JSON: where the first syntax error is (1-based line and column in characters, 0-based byte offset).
    case malformedJSON(String, line: Int, column: Int, byteOffset: Int, detail: String)
    /// JSON, but not the `culturalEventInfo` shape.
    case notCatalogue(String, detail: String)
    case apiKeyMissing
    /// `--api`, and the `archive.api-key` setting is not set.
    case apiKeyNotSet
    case apiUnreachable(host: String)
    case apiTimedOut(host: String, seconds: Int)
    /// The API answered with one of its error codes (INFO-100 bad key, ERROR-500 server error, …).
    case apiRefused(code: String, message: String)
    case apiStatus(Int)
    case apiBadResponse(String)
    case apiFailed(String)

    public var message: String {
        switch self {
        case .fileNotFound(let path): "There is no file at \(path)."
        case .unreadable(let path, let reason): "\(path) cannot be read: \(reason)."
        case .malformedJSON(let path, let line, let column, let offset, let detail):
            "\(path) is not valid JSON: \(detail) at line \(line), column \(column) (byte \(offset)). Nothing was imported."
        case .notCatalogue(let path, let detail):
            "\(path) is JSON but not a culturalEventInfo catalogue: \(detail). Nothing was imported."
        case .apiKeyMissing: "The API key is empty."
        case .apiKeyNotSet: "No Seoul Open Data API key is set, so the live catalogue cannot be imported."
        case .apiUnreachable(let host):
            "Could not reach the Seoul Open Data API at \(host): the network is offline or the server is down. Nothing was imported."
        case .apiTimedOut(let host, let seconds):
            "The Seoul Open Data API at \(host) did not answer within \(seconds) seconds. Nothing was imported."
        case .apiRefused(let code, let message): "The Seoul Open Data API refused the request: \(message) (\(code)). Nothing was imported."
        case .apiStatus(let status): "The Seoul Open Data API answered with HTTP status \(status). Nothing was imported."
        case .apiBadResponse(let detail):
            "The Seoul Open Data API sent something that is not a culturalEventInfo page: \(detail). Nothing was imported."
        case .apiFailed(let detail): "The request to the Seoul Open Data API failed: \(detail). Nothing was imported."
        }
    }

    public var hint: String? {
        switch self {
        case .fileNotFound, .unreadable: "Check the path, or import the live catalogue with `moa archive import --api`."
        case .malformedJSON: "Download the file again, or fix the JSON at that position."
        case .notCatalogue: "Expected {\"culturalEventInfo\": {\"row\": [ … ]}} as published by data.seoul.go.kr."
        case .apiKeyMissing: "Get a key at data.seoul.go.kr (“인증키 신청”) and store it with `moa settings set archive.api-key --value-stdin`."
        case .apiKeyNotSet:
            "Store your key (from data.seoul.go.kr, “인증키 신청”) with `moa settings set archive.api-key --value-stdin`, or set MOA_ARCHIVE_API_KEY."
        case .apiUnreachable:
            "Check your network connection and try again, or import a downloaded file with `moa archive import FILE.json`."
        case .apiTimedOut: "Try again later, or fetch fewer rows at a time with --from and --to."
        case .apiRefused(let code, _) where code == "INFO-100": "Check the API key (data.seoul.go.kr → 인증키 관리)."
        case .apiRefused, .apiStatus: "Try again later."
        case .apiBadResponse, .apiFailed: nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .fileNotFound, .unreadable: .noInput
        case .malformedJSON, .notCatalogue, .apiBadResponse: .dataError
        case .apiKeyMissing: .usage
        case .apiKeyNotSet: .configuration
        case .apiUnreachable, .apiFailed: .unavailable
        case .apiTimedOut: .temporaryFailure
        case .apiRefused(let code, _):
            code == "INFO-100" ? .noPermission : (code.hasPrefix("ERROR-5") ? .temporaryFailure : .unavailable)
        case .apiStatus(let status): status >= 500 || status == 429 ? .temporaryFailure : .unavailable
        }
    }
}
