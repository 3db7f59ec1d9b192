import APIServing
import AuthDomain
import AuthInterface
import Foundation
import Logging
import SharedKit

/// Who the request being served acts for: the user of its bearer token, if it carried a live one.
///
/// A task-local value, set by the server around the rest of the request (``run(_:tokens:operation:)``),
/// so that the Domain's use cases — composed once, each asking its `SessionProvider` who is acting —
/// act for this request's user and no other, however many requests run at once.
public struct RequestUser: Sendable {
    public let user: AuthenticatedUser
    public let session: SessionRecord

    @TaskLocal static var current: RequestUser?

    /// The user of the access token in `authorization` (an `Authorization` header), if it is live.
    public static func of(authorization: String?, tokens: SessionTokens) async throws -> RequestUser? {
        guard let authorization, let token = BearerToken.parse(authorization),
            let (session, user) = try await tokens.liveUser(accessToken: token)
        else { return nil }
        return RequestUser(user: user, session: session)
    }

    /// Runs `operation` as `user` (nobody when `nil`): every `SessionProviderKey` of the server
    /// (``RequestSession``) answers with it.
    public static func run<T: Sendable>(as user: RequestUser?, _ operation: () async throws -> T) async throws -> T {
        try await $current.withValue(user, operation: operation)
    }

    /// The request's user and session, or 401.
    static func authenticated() throws -> (AuthenticatedUser, SessionRecord) {
        guard let current else { throw NotLoggedInError() }
        return (current.user, current.session)
    }
}

/// `SessionProviderKey` in `moa-server`: the user of the request being served (``RequestUser``).
/// Outside a request, and for a request without a live token, nobody.
public struct RequestSession: SessionProvider {
    public init() {}

    public func currentUser() async throws -> AuthenticatedUser? {
        RequestUser.current?.user
    }
}

/// `ClientOriginKey` in `moa-server`: the client of the request being served (`ServedRequest`),
/// and its security events as warnings in the log, with the request's id, the client and the address.
public struct RequestClientOrigin: ClientOrigin {
    public init() {}

    public func client() -> String { ServedRequest.current?.client ?? ServedRequest.unknownClient }

    public func witness(_ event: SecurityEvent) {
        guard let request = ServedRequest.current else { return }
        var metadata: Logger.Metadata = [
            "event": .string(event.kind.rawValue), "address": .string(event.email), "client": .string(request.client),
        ]
        if let user = event.userID { metadata["user"] = .string(user.rawValue) }
        request.logger.warning("security", metadata: metadata)
    }
}

/// Auth's refusals as problem documents: nobody logged in is 401 (with the challenge the request
/// calls for), a lockout 429 with `Retry-After`.
public enum AuthProblems {
    public static let classifier: ProblemCatalog.Classifier = { error, now in
        switch error {
        case is NotLoggedInError:
            Problem.unauthenticated(error.message, tokenGiven: ServedRequest.current?.tokenGiven ?? false)
        case AuthError.throttled(let until), AuthError.loginDelayed(let until), AuthError.codesLocked(let until),
            AccountSecurityError.resetLocked(let until):
            ProblemCatalog.rateLimited(error, until: until, now: now)
        default: nil
        }
    }
}
