import AuthDomain
import AuthInterface
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import OpenAPIRuntime

/// Who the request being served acts for: the user of its bearer token, if it carried a live one.
///
/// A task-local value, set by ``BearerMiddleware`` around the rest of the request, so that the
/// Domain's use cases — composed once, each asking its `SessionProvider` who is acting — act for
/// this request's user and no other, however many requests run at once.
struct RequestUser: Sendable {
    /// The token's user and session, when the token is live.
    let authenticated: (user: AuthenticatedUser, session: SessionRecord)?
    /// Whether the request carried an `Authorization` header at all (a 401 says which it was).
    let tokenGiven: Bool
    /// The client address (``ClientAddressResolver``): guessing is throttled per client.
    let client: String
    /// The request's logger (its `request_id` on every line).
    let logger: Logger

    @TaskLocal static var current: RequestUser?
}

/// `SessionProviderKey` in `moa-server`: the user of the request being served (``RequestUser``).
/// Outside a request, and for a request without a live token, nobody.
struct RequestSession: SessionProvider {
    func currentUser() async throws -> AuthenticatedUser? {
        RequestUser.current?.authenticated?.user
    }
}

/// Reads `Authorization: Bearer <access token>` and runs the rest of the request as its user
/// (``RequestUser``). It refuses nothing itself: a route that needs a user finds none and answers
/// 401 (`NotLoggedInError`, which this middleware turns into the `unauthenticated` problem with
/// its `WWW-Authenticate` challenge); sign-up, login, refresh and the others that need none do not care.
struct BearerMiddleware: RouterMiddleware {
    typealias Context = MoaRequestContext
    let tokens: SessionTokens
    let clients: ClientAddressResolver

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let header = request.headers[.authorization]
        var authenticated: (user: AuthenticatedUser, session: SessionRecord)?
        if let header, let token = BearerToken.parse(header), let session = try await tokens.liveSession(accessToken: token),
            let user = try await tokens.user(of: session)
        {
            authenticated = (user, session)
            context.trace.user = user.id.rawValue
        }
        let client = clients.client(peer: context.remoteAddress, forwardedFor: ClientAddressResolver.forwardedFor(request.headers))
        let requestUser = RequestUser(authenticated: authenticated, tokenGiven: header != nil, client: client, logger: context.logger)
        // A route that acts for a user answers 401 before it reads anything else of the request.
        if authenticated == nil, Self.actsForAUser(request.uri.path) {
            throw Problem.unauthenticated(tokenGiven: requestUser.tokenGiven)
        }
        do {
            return try await RequestUser.$current.withValue(requestUser) { try await next(request, context) }
        } catch let error as OpenAPIRuntime.ServerError where error.underlyingError is NotLoggedInError {
            throw Problem.unauthenticated(tokenGiven: requestUser.tokenGiven)
        } catch is NotLoggedInError {
            throw Problem.unauthenticated(tokenGiven: requestUser.tokenGiven)
        }
    }
}

extension BearerMiddleware {
    /// The routes that act for the token's user (docs/api/openapi.yaml: every one under `/v1/` but
    /// sign-up, verification, login, refresh and password reset).
    static func actsForAUser(_ path: String) -> Bool {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        guard segments.first == "v1", segments.count >= 2 else { return false }
        switch segments[1] {
        case "accounts", "transfers", "recipients", "inbox", "settings": return true
        case "auth":
            return segments.count >= 3 && ["logout", "session", "delete"].contains(segments[2])
                || segments.dropFirst(2).first == "password" && segments.dropFirst(3).first == "change"
        default: return false
        }
    }
}

/// The bearer token of an `Authorization` header (RFC 6750).
enum BearerToken {
    /// Tokens are URL-safe base64 of 32 random bytes; anything much longer, or of other characters,
    /// is refused without a lookup.
    static let maximumLength = 512

    /// The token of `Bearer <token>` (the scheme's case ignored), if it is plausible.
    static func parse(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty, token.utf8.count <= maximumLength, token.unicodeScalars.allSatisfy(isTokenCharacter) else { return nil }
        return token
    }

    /// RFC 6750's b64token characters.
    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "-", ".", "_", "~", "+", "/", "=": true
        default: false
        }
    }
}

/// An empty request body is no body: `POST /v1/auth/logout` takes an optional one, and a client
/// that sends none (or zero bytes) means "no options", not "malformed JSON". Bodies are already at
/// most ``MoaServer/maximumBodyBytes`` (``BodyLimitMiddleware``), so collecting one costs little.
struct EmptyBodyMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPTypes.HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPTypes.HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPTypes.HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPTypes.HTTPResponse, HTTPBody?) {
        guard let body else { return try await next(request, nil, metadata) }
        if case .known(0) = body.length { return try await next(request, nil, metadata) }
        let bytes = try await [UInt8](collecting: body, upTo: MoaServer.maximumBodyBytes)
        switch DuplicateKeys.first(in: bytes) {
        case .duplicate(let twice):
            let field = Problem.quoted(twice)
            throw Problem.malformed("The body gives \(field) twice; each field may be given once.", field: field)
        case .tooDeep:
            throw Problem.malformed("The body nests objects and arrays deeper than \(DuplicateKeys.maximumDepth) levels.")
        case nil: break
        }
        return try await next(request, bytes.isEmpty ? nil : HTTPBody(bytes), metadata)
    }
}
