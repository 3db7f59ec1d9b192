import Foundation
import SharedKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why an HTTP exchange failed. Every case reads as one sentence and never contains a secret.
///
/// Exit statuses (sysexits), part of the CLI contract:
/// | case | exit status |
/// | --- | --- |
/// | `offline`, `transport` | `unavailable` (69): the service cannot be reached |
/// | `timedOut`, `cancelled` | `temporaryFailure` (75): trying again may work |
/// | `invalidURL` | `configuration` (78): the base URL setting is wrong |
/// | `decoding` | `dataError` (65): the server sent data we cannot read |
/// | `httpStatus` 401, 403 | `noPermission` (77) |
/// | `httpStatus` 400, 422 | `dataError` (65): the request's input was refused |
/// | `httpStatus` 408, 429, 5xx | `temporaryFailure` (75) |
/// | `httpStatus` other | `unavailable` (69), e.g. 404 "not found" |
public enum NetworkError: Error, Equatable, Sendable, UserFacingError, CustomStringConvertible {
    /// The server could not be reached: no network, host not found, connection refused or lost.
    case offline
    /// The server did not answer within the request's timeout.
    case timedOut
    /// The URL is not an absolute `http`/`https` URL; carries the URL with secrets redacted.
    case invalidURL(String)
    /// The request was cancelled (task cancellation).
    case cancelled
    /// Any other transport failure (TLS, bad response, …), described with secrets redacted.
    case transport(String)
    /// The server answered with a non-2xx status; carries the status and the response body.
    case httpStatus(Int, Data)
    /// The body could not be decoded; says what was expected where (e.g. `items[0].login`).
    case decoding(String)

    public var message: String {
        switch self {
        case .offline:
            return "Could not connect to the server."
        case .timedOut:
            return "The server did not answer in time."
        case .invalidURL(let url) where url.isEmpty:
            return "The address is not a valid http or https URL."
        case .invalidURL(let url):
            return "\"\(url)\" is not a valid http or https URL."
        case .cancelled:
            return "The request was cancelled."
        case .transport(let detail):
            return "The request failed: \(Self.trimmingFinalPeriod(detail))."
        case .httpStatus(let status, _):
            if let reason = Self.reasonPhrase(status) {
                return "The server answered with HTTP status \(status) (\(reason))."
            }
            return "The server answered with HTTP status \(status)."
        case .decoding(let detail):
            return "The server's response could not be read: \(Self.trimmingFinalPeriod(detail))."
        }
    }

    public var hint: String? {
        switch self {
        case .offline:
            return "Check your network connection and the server address, then try again."
        case .timedOut:
            return "Try again later."
        case .invalidURL:
            return "Use an absolute URL starting with http:// or https://."
        case .httpStatus(let status, _) where status == 401 || status == 403:
            return "Check your access token."
        case .httpStatus(let status, _) where status == 408 || status == 429 || status >= 500:
            return "Try again later."
        case .cancelled, .transport, .httpStatus, .decoding:
            return nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .offline, .transport:
            return .unavailable
        case .timedOut, .cancelled:
            return .temporaryFailure
        case .invalidURL:
            return .configuration
        case .decoding:
            return .dataError
        case .httpStatus(let status, _):
            switch status {
            case 401, 403: return .noPermission
            case 400, 422: return .dataError
            case 408, 429, 500...: return .temporaryFailure
            default: return .unavailable
            }
        }
    }

    public var description: String { message }

    /// The error for a failed transfer: maps `URLError` codes, task cancellation, and passes a `NetworkError` through.
    /// The same error with `secrets` masked in its text (a transport failure may quote the URL).
    public func hiding(_ secrets: [String]) -> NetworkError {
        switch self {
        case .transport(let text): .transport(Redactor.hide(secrets, in: text))
        case .invalidURL(let text): .invalidURL(Redactor.hide(secrets, in: text))
        default: self
        }
    }

    public init(transportError error: any Error) {
        switch error {
        case let error as NetworkError:
            self = error
        case is CancellationError:
            self = .cancelled
        case let error as URLError:
            self.init(urlError: error)
        default:
            self = .transport(String(describing: error))
        }
    }

    /// Maps a `URLError`: connectivity codes to ``offline``, then ``timedOut``, ``invalidURL(_:)``,
    /// ``cancelled``, and the rest to ``transport(_:)``.
    public init(urlError error: URLError) {
        switch error.code {
        case .notConnectedToInternet, .cannotConnectToHost, .cannotFindHost, .networkConnectionLost,
            .dnsLookupFailed:
            self = .offline
        case .timedOut:
            self = .timedOut
        case .badURL, .unsupportedURL:
            self = .invalidURL(error.failingURL.map(Redactor.redact) ?? "")
        case .cancelled:
            self = .cancelled
        default:
            var detail = error.localizedDescription
            // Some platforms put the failing URL, query and all, in the description.
            if let failing = error.failingURL {
                detail = detail.replacingOccurrences(of: failing.absoluteString, with: Redactor.redact(failing))
            }
            self = .transport("\(detail) (URLError \(error.code.rawValue))")
        }
    }

    /// The error for a body that failed to decode as `type`, described in terms a person can act on.
    public init(decodingError error: any Error, type: Any.Type, body: Data) {
        let name = Self.typeName(type)
        let detail: String
        switch error {
        case DecodingError.typeMismatch(let expected, let context):
            detail = "expected \(Self.typeName(expected)) at \(Self.render(context.codingPath)) of \(name)"
        case DecodingError.valueNotFound(let expected, let context):
            let place = "\(Self.render(context.codingPath)) of \(name)"
            detail = "found null where \(Self.typeName(expected)) was expected at \(place)"
        case DecodingError.keyNotFound(let key, let context):
            detail = "missing key \"\(key.stringValue)\" at \(Self.render(context.codingPath)) of \(name)"
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
            detail = "the body is not valid JSON (\(Self.describeBody(body)))"
        case DecodingError.dataCorrupted(let context):
            let reason = Self.trimmingFinalPeriod(context.debugDescription)
            detail = "invalid value at \(Self.render(context.codingPath)) of \(name) (\(reason))"
        default:
            detail = "\(name) could not be decoded (\(error))"
        }
        self = .decoding(detail)
    }

    /// `items[0].login`, or `the top level` for the root.
    static func render(_ path: [any CodingKey]) -> String {
        var result = ""
        for key in path {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += (result.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return result.isEmpty ? "the top level" : result
    }

    /// What the body looks like, without repeating its content (it may hold anything).
    private static func describeBody(_ body: Data) -> String {
        guard let first = body.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else {
            return "it is empty"
        }
        let size = body.count == 1 ? "1 byte" : "\(body.count) bytes"
        return first == UInt8(ascii: "<") ? "it looks like HTML or XML, \(size)" : "\(size)"
    }

    private static func typeName(_ type: Any.Type) -> String {
        String(describing: type)
    }

    private static func trimmingFinalPeriod(_ text: String) -> String {
        text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    private static func reasonPhrase(_ status: Int) -> String? {
        switch status {
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 422: return "Unprocessable Content"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return nil
        }
    }
}
