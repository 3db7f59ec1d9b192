import Foundation
import SharedKit

/// How the typed errors of every served feature become problem documents.
///
/// Most follow from the exit status `moa` gives them (65 → 422 `validation`, 69 → 404 `not-found`,
/// 1 → 409 `conflict`, 77 → 403 `invalid-credentials`, 64 → 400 `invalid-parameter`, 75 → 503
/// `unavailable`). The exceptions — nobody logged in (401), a lockout (429 with `Retry-After`),
/// money refusals with their own type — belong to the feature whose error it is: each `<F>Server`
/// offers its ``Classifier``, and the server composes them into one catalog.
public struct ProblemCatalog: Sendable {
    /// A feature's own mapping: the problem for `error` at `now`, or `nil` to leave it to the exit status.
    public typealias Classifier = @Sendable (_ error: any UserFacingError, _ now: Date) -> Problem?

    let classifiers: [Classifier]

    public init(_ classifiers: [Classifier]) {
        self.classifiers = classifiers
    }

    /// The problem for `error`: the first feature's that claims it, else the one its exit status gives.
    public func problem(for error: any UserFacingError, now: Date = Date()) -> Problem {
        for classify in classifiers {
            if let problem = classify(error, now) { return problem }
        }
        return Self.byExitStatus(error)
    }

    /// The problem of `error` by its exit status alone.
    public static func byExitStatus(_ error: any UserFacingError) -> Problem {
        let (detail, hint, status) = (error.message, error.hint, error.exitStatus)
        switch status {
        case .dataError:
            return Problem(
                kind: "validation", title: "Invalid value", status: .unprocessableContent, detail: detail, exitStatus: status, hint: hint)
        case .usage:
            return Problem(
                kind: "invalid-parameter", title: "Invalid parameter", status: .badRequest, detail: detail, exitStatus: status, hint: hint)
        case .unavailable, .noInput:
            return Problem(kind: "not-found", title: "Not found", status: .notFound, detail: detail, exitStatus: .unavailable, hint: hint)
        case .refused:
            return Problem(kind: "conflict", title: "Conflict", status: .conflict, detail: detail, exitStatus: status, hint: hint)
        case .noPermission:
            return Problem(
                kind: "invalid-credentials", title: "Invalid credentials", status: .forbidden, detail: detail, exitStatus: status,
                hint: hint)
        case .temporaryFailure:
            return Problem(
                kind: "unavailable", title: "Service unavailable", status: .serviceUnavailable, detail: detail, exitStatus: status,
                hint: hint)
        case .ok, .software, .ioError, .configuration, .interrupted:
            return Problem.internalError
        }
    }

    /// 429 `rate-limited`, with `Retry-After` in whole seconds (at least 1) until `until`.
    public static func rateLimited(_ error: any UserFacingError, until: Date, now: Date) -> Problem {
        Problem(
            kind: "rate-limited", title: "Too many requests", status: .tooManyRequests, detail: error.message,
            exitStatus: error.exitStatus, hint: error.hint, retryAfter: max(1, Int(until.timeIntervalSince(now).rounded(.up))))
    }

    /// 409 of a kind of its own (`insufficient-funds`, `limit-exceeded`): a refusal a client tells apart.
    public static func conflict(_ error: any UserFacingError, kind: String, title: String) -> Problem {
        Problem(kind: kind, title: title, status: .conflict, detail: error.message, exitStatus: error.exitStatus, hint: error.hint)
    }
}
