import Foundation
import HTTPTypes
import OpenAPIRuntime
import SharedKit

/// An error response as RFC 9457 describes it (`application/problem+json`): a stable `type` URI per
/// kind of problem, a `title`, the HTTP `status`, a `detail` sentence, and the `exit_status` the CLI
/// exits with for it (docs/api/openapi.yaml, `Problem`, lists every type).
///
/// Every served feature's handlers throw it (or a typed error of their Domain, which
/// ``ProblemCatalog`` turns into one); the server writes it.
public struct Problem: Error, Sendable, Equatable {
    /// The last path component of the `type` URI (`https://moa.example/problems/not-found`).
    public let kind: String
    public let title: String
    public let status: HTTPResponse.Status
    public let detail: String
    public let exitStatus: ExitStatus
    public var hint: String?
    /// A JSON Pointer to the value at fault (`/amount`), for `validation` and `unknown-field`.
    public var field: String?
    /// Seconds until trying again may work (`Retry-After`), for `rate-limited`.
    public var retryAfter: Int?
    /// `WWW-Authenticate` (RFC 6750), for `unauthenticated`.
    public var challenge: String?
    /// `Allow` (RFC 9110), for `method-not-allowed`.
    public var allow: String?
    /// Whether the connection is closed after this answer (a body that did not arrive in time).
    public var closesConnection = false

    public static let typeBase = "https://moa.example/problems/"

    public init(
        kind: String, title: String, status: HTTPResponse.Status, detail: String, exitStatus: ExitStatus, hint: String? = nil,
        field: String? = nil, retryAfter: Int? = nil, challenge: String? = nil, allow: String? = nil
    ) {
        self.kind = kind
        self.title = title
        self.status = status
        self.detail = detail
        self.exitStatus = exitStatus
        self.hint = hint
        self.field = field
        self.retryAfter = retryAfter
        self.challenge = challenge
        self.allow = allow
    }

    /// The problem document's bytes.
    public var documentBytes: [UInt8] {
        var object: [String: Any] = [
            "type": Self.typeBase + kind, "title": title, "status": status.code, "detail": detail, "exit_status": Int(exitStatus.rawValue),
        ]
        if let hint { object["hint"] = hint }
        if let field { object["field"] = field }
        return Array(Self.serialized(object))
    }

    public static func serialized(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    }

    // MARK: Kinds

    /// Nobody logged in, or a token that is not live: 401 with its challenge. `detail` is the
    /// sentence `moa` prints for it (Auth's `NotLoggedInError`).
    public static func unauthenticated(_ detail: String, tokenGiven: Bool) -> Problem {
        Problem(
            kind: "unauthenticated", title: "Unauthenticated", status: .unauthorized, detail: detail, exitStatus: .noPermission,
            challenge: tokenGiven ? #"Bearer error="invalid_token""# : "Bearer")
    }

    public static func malformed(_ detail: String, field: String? = nil) -> Problem {
        Problem(
            kind: "malformed-request", title: "Malformed request", status: .badRequest, detail: detail, exitStatus: .dataError, field: field
        )
    }

    /// A query or path parameter outside what the document allows (400 `invalid-parameter`).
    public static func invalidParameter(_ detail: String, name: String? = nil) -> Problem {
        Problem(kind: "invalid-parameter", title: "Invalid parameter", status: .badRequest, detail: detail, exitStatus: .usage, field: name)
    }

    /// A value of the right JSON type that is longer than the document's transport bound.
    public static func tooLong(_ pointer: String, maximum: Int) -> Problem {
        Problem(
            kind: "validation", title: "Invalid value", status: .unprocessableContent,
            detail: "The value of \(pointer) is longer than \(maximum) characters.", exitStatus: .dataError, field: pointer)
    }

    /// A body of another content type than the one operation declares.
    public static let notJSON = Problem(
        kind: "unsupported-media-type", title: "Unsupported media type", status: .unsupportedMediaType,
        detail: "The request body must be application/json.", exitStatus: .dataError)

    /// A bug, or the database or the disk failing under us: a 500 that tells nothing of the cause
    /// (which the server logs).
    public static let internalError = Problem(
        kind: "internal", title: "Internal Server Error", status: .internalServerError,
        detail: "The server failed unexpectedly; the cause is in its log.", exitStatus: .software)

    /// What the generated server code threw: our own error from a handler (unwrapped), or a request
    /// it could not decode — a body that is not JSON, has a wrong type, misses or adds a field, a
    /// parameter or header that cannot be read, a body that is not `application/json`. `nil` for
    /// anything else (a failure: a 500).
    public static func from(_ error: OpenAPIRuntime.ServerError, catalog: ProblemCatalog) -> Problem? {
        switch error.underlyingError {
        case let problem as Problem: return problem
        case let error as any UserFacingError: return catalog.problem(for: error)
        case let error as DecodingError: return from(error)
        default: break
        }
        switch error.httpStatus {
        case .unsupportedMediaType:
            return notJSON
        case .badRequest:
            let cause = String(describing: error.underlyingError)
            if cause.contains("Failed to decode a value of type") {
                return invalidParameter("A parameter of the address or the query has a value this route does not take.")
            }
            if cause.contains("header field") {
                return malformed("A required header is missing: \(Self.quoted(error.causeDescription)).")
            }
            return malformed("The request cannot be read: \(Self.quoted(error.causeDescription)).")
        default:
            return nil
        }
    }

    /// A body the generated decoder refused: a field this route does not define, or JSON of the wrong
    /// shape — or a path or query parameter it could not read (its decoder's errors carry no coding
    /// path and say nothing of JSON).
    public static func from(_ error: DecodingError) -> Problem {
        if case .keyNotFound = error {
            // Only a body's object misses a key (parameters are read one by one).
        } else if let context = Self.context(of: error), context.codingPath.isEmpty, !Self.isAboutJSON(context.debugDescription) {
            return invalidParameter("A parameter of the address or the query has a value this route does not take.")
        }
        switch error {
        case .dataCorrupted(let context) where context.debugDescription.hasPrefix("Additional properties are disabled"):
            let name = context.codingPath.last?.stringValue ?? "?"
            let pointer = "/" + (context.codingPath.dropLast().map(\.stringValue) + [name]).joined(separator: "/")
            return Problem(
                kind: "unknown-field", title: "Unknown field", status: .badRequest,
                detail: "The request has a field “\(Self.quoted(name))” that this route does not take.", exitStatus: .dataError,
                field: pointer)
        case .keyNotFound(let key, let context):
            let pointer = "/" + (context.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: "/")
            return malformed("The request has no “\(Self.quoted(key.stringValue))”, which this route needs.", field: pointer)
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            let pointer = "/" + context.codingPath.map(\.stringValue).joined(separator: "/")
            return malformed("The value of \(Self.quoted(pointer)) has the wrong type.", field: pointer)
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return malformed("The request body is not valid JSON.") }
            let pointer = "/" + context.codingPath.map(\.stringValue).joined(separator: "/")
            return malformed("The value of \(Self.quoted(pointer)) cannot be read.", field: pointer)
        @unknown default:
            return malformed("The request body cannot be read.")
        }
    }

    static func context(of error: DecodingError) -> DecodingError.Context? {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            context
        @unknown default: nil
        }
    }

    /// Whether a decoding error's message is the JSON decoder's (a body), not the URI decoder's (a parameter).
    static func isAboutJSON(_ description: String) -> Bool {
        description.contains("JSON") || description.hasPrefix("Expected") || description.contains("Unexpected end of file")
    }

    /// Text from the request, as a detail quotes it: at most 40 characters, no control character.
    public static func quoted(_ text: String) -> String {
        let clean = String(String.UnicodeScalarView(text.unicodeScalars.filter { !$0.properties.generalCategory.isControlLike }))
        return clean.count > 40 ? String(clean.prefix(40)) + "…" : clean
    }
}

extension Unicode.GeneralCategory {
    /// Control, format (bidirectional overrides among them), and unassigned or private code points.
    fileprivate var isControlLike: Bool {
        switch self {
        case .control, .format, .unassigned, .privateUse, .surrogate, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
