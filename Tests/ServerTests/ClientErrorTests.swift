import Foundation
import HTTPTypes
import SharedKit
import Testing

@testable import MoaRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What `moa` says when the server cannot be used (issue 24, item 9): each failure in words, with the
/// exit status that tells a script what to do — a certificate this machine does not trust is
/// configuration (78), not "try again later"; a refused connection sent nothing; an address the HTTP
/// client cannot use is said as such; a server that is not moa-server is named so.
@Suite("moa · what a failed request says")
struct ClientErrorTests {
    static let server = "https://bank.example"

    @Test(arguments: [
        URLError.Code.serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate,
        .serverCertificateNotYetValid, .secureConnectionFailed,
    ])
    func anUntrustedCertificateIsConfigurationNotATemporaryFailure(code: URLError.Code) throws {
        let error = try #require(RemoteAPI.failure(URLError(code), server: Self.server) as? ServerNotTrusted)
        #expect(error.exitStatus == .configuration)
        #expect(error.message.hasPrefix("moa-server at https://bank.example presented a certificate this machine does not trust ("))
        #expect(error.message.hasSuffix(")."))
        #expect(error.hint?.contains("update-ca-certificates") == true)
        #expect(error.hint?.lowercased().contains("try again") == false)
    }

    /// Foundation on Linux: libcurl's verification failure arrives as `unknown` with libcurl's sentence.
    @Test(arguments: [
        "SSL certificate problem: unable to get local issuer certificate", "SSL certificate problem: self-signed certificate",
        "SSL: no alternative certificate subject name matches target host name '10.0.0.1'",
    ])
    func libcurlsVerificationFailuresAreUntrustedCertificates(sentence: String) throws {
        let error = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: sentence])
        let said = try #require(RemoteAPI.failure(error, server: Self.server) as? ServerNotTrusted)
        #expect(said.exitStatus == .configuration)
        #expect(said.message.contains(sentence))
        #expect(
            RemoteAPI.failure(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "Recv failure"]), server: Self.server)
                is ServerUnreachable)
    }

    @Test func aRefusedConnectionSentNothingAndATimeoutMayHave() throws {
        let refused = try #require(RemoteAPI.failure(URLError(.cannotConnectToHost), server: Self.server) as? ServerUnreachable)
        #expect(refused.sent == .nothing)
        #expect(refused.exitStatus == .temporaryFailure)
        #expect(
            refused.message == "Cannot reach moa-server at https://bank.example: the connection was refused (is moa-server running there?)."
        )
        #expect(refused.hint?.hasPrefix("Nothing reached it") == true)
        let unknownHost = try #require(RemoteAPI.failure(URLError(.cannotFindHost), server: Self.server) as? ServerUnreachable)
        #expect(unknownHost.sent == .nothing)
        #expect(unknownHost.message.hasSuffix(": no such host."))

        let timedOut = try #require(RemoteAPI.failure(URLError(.timedOut), server: Self.server) as? ServerUnreachable)
        #expect(timedOut.sent == .perhaps)
        #expect(timedOut.message == "Cannot reach moa-server at https://bank.example: no answer came within 30 seconds.")
        // Only a send that may have arrived speaks of keys; a deposit's hint does not (it did).
        #expect(timedOut.hint?.contains("key") == false)
        let lost = TransferOutcomeUnknown(key: "k-1", reason: timedOut)
        #expect(lost.message.contains("may or may not have been sent"))
        #expect(lost.hint == "Send it again with --idempotency-key k-1: it is sent once either way.")
        for error in [refused, timedOut] as [any UserFacingError] { #expect(!error.message.contains("NSURLErrorDomain")) }
    }

    @Test func anAddressTheClientCannotUseIsSaidAsSuch() throws {
        let error = try #require(RemoteAPI.failure(URLError(.unsupportedURL), server: "http://[::1]:8081") as? ServerAddressUnusable)
        #expect(error.exitStatus == .configuration)
        #expect(error.message.hasPrefix("Cannot use the server address http://[::1]:8081: "))
        #expect(!error.message.contains("-1000"))
    }

    @Test func aServerThatIsNotMoaServerIsNamedSo() {
        let other = ProblemMiddleware.problem(status: .init(code: 501), data: Data(), retryAfter: nil)
        #expect(other.message.hasPrefix("The server answered HTTP 501"))
        #expect(other.message.hasSuffix(" without a problem document, which moa-server always sends."))
        #expect(!other.message.contains(" ."))
        #expect(other.exitStatus == .unavailable)
        #expect(other.hint?.contains("moa doctor") == true)
        let page = ProblemMiddleware.problem(status: .notFound, data: Data("<html>nginx</html>".utf8), retryAfter: nil)
        #expect(page.message.hasPrefix("The server answered HTTP 404 Not Found without a problem document"))
        // The connection ceiling's bare 503 (or a proxy's): busy for now, 75.
        let busy = ProblemMiddleware.problem(status: .serviceUnavailable, data: Data(), retryAfter: "1")
        #expect(busy.exitStatus == .temporaryFailure)
        #expect(busy.message == "The server is too busy or restarting (HTTP 503 Service Unavailable).")
    }
}
