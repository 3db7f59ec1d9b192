import AccountDomain
import AccountInterface
import AuthDomain
import AuthInterface
import Foundation
import Hummingbird
import SharedKit
import TransferDomain

extension Problem {
    /// A typed error of the Domain as its problem document: the same sentence, hint and exit status
    /// as the embedded `moa` prints, and the HTTP status and `type` docs/api/openapi.yaml gives it.
    ///
    /// Most follow from the exit status (65 → 422 `validation`, 69 → 404 `not-found`, 1 → 409
    /// `conflict`, 77 → 403 `invalid-credentials`, 64 → 400 `invalid-parameter`); the exceptions
    /// are named here: nobody logged in (401), a lockout (429 with `Retry-After`), money refusals
    /// with their own type, and a reused idempotency key (422).
    init(_ error: any UserFacingError, now: Date = Date()) {
        let detail = error.message
        let hint = error.hint
        let status = error.exitStatus
        switch error {
        case is NotLoggedInError:
            self = .unauthenticated(tokenGiven: RequestUser.current?.tokenGiven ?? false) // BearerMiddleware knows better
            return
        case AuthError.throttled(let until), AuthError.loginDelayed(let until), AuthError.codesLocked(let until),
            AccountSecurityError.resetLocked(let until):
            self.init(
                kind: "rate-limited", title: "Too many requests", status: .tooManyRequests, detail: detail, exitStatus: status,
                hint: hint, retryAfter: max(1, Int(until.timeIntervalSince(now).rounded(.up))))
            return
        case PostingError.insufficientFunds:
            self.init(
                kind: "insufficient-funds", title: "Insufficient funds", status: .conflict, detail: detail, exitStatus: status, hint: hint)
            return
        case TransferError.overPerTransferLimit, TransferError.dailyLimitExceeded, TransferError.noLimits:
            self.init(kind: "limit-exceeded", title: "Limit exceeded", status: .conflict, detail: detail, exitStatus: status, hint: hint)
            return
        case TransferError.idempotencyKeyReused:
            self.init(
                kind: "idempotency-key-reused", title: "Idempotency key reused", status: .unprocessableContent, detail: detail,
                exitStatus: status, hint: hint)
            return
        default:
            break
        }
        switch status {
        case .dataError:
            self.init(
                kind: "validation", title: "Invalid value", status: .unprocessableContent, detail: detail, exitStatus: status, hint: hint)
        case .usage:
            self.init(
                kind: "invalid-parameter", title: "Invalid parameter", status: .badRequest, detail: detail, exitStatus: status, hint: hint)
        case .unavailable, .noInput:
            self.init(kind: "not-found", title: "Not found", status: .notFound, detail: detail, exitStatus: .unavailable, hint: hint)
        case .refused:
            self.init(kind: "conflict", title: "Conflict", status: .conflict, detail: detail, exitStatus: status, hint: hint)
        case .noPermission:
            self.init(
                kind: "invalid-credentials", title: "Invalid credentials", status: .forbidden, detail: detail, exitStatus: status,
                hint: hint)
        case .temporaryFailure:
            self.init(
                kind: "unavailable", title: "Service unavailable", status: .serviceUnavailable, detail: detail, exitStatus: status,
                hint: hint)
        case .ok, .software, .ioError, .configuration:
            self.init(
                kind: "internal", title: "Internal Server Error", status: .internalServerError,
                detail: "The server failed unexpectedly; the cause is in its log.", exitStatus: .software)
        }
    }
}
