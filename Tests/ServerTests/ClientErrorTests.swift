import Foundation
import HTTPTypes
import SharedKit
import Testing

@testable import MoaRemote

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

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

    /// A server that takes the connection and never answers (issue 24, item 8): the call ends at its
    /// deadline with words, not "NSURLErrorDomain error -1001" after a minute, and the next call of
    /// the same process fails at once without sending anything.
    @Test func aSilentServerCostsOneDeadlineAndNoMore() async throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let api = RemoteAPI(address: try ServerAddress("http://127.0.0.1:\(listener.port)", origin: .option), timeout: 1.5)
        let start = ContinuousClock.now
        let first = await #expect(throws: ServerUnreachable.self) { _ = try await api.health() }
        #expect(first?.sent == .perhaps)
        #expect(first?.message == "Cannot reach moa-server at http://127.0.0.1:\(listener.port): no answer came within 1.5 seconds.")
        // The call's own deadline ended it (Foundation's backstop would have said 30 seconds, later).
        #expect(ContinuousClock.now - start >= .seconds(1.4))

        // The next call sends nothing: the earlier silence is the answer.
        let second = await #expect(throws: ServerUnreachable.self) { _ = try await api.health() }
        #expect(second?.sent == .nothing)
        #expect(second?.message.hasSuffix("it did not answer an earlier request within 1.5 seconds.") == true)
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

/// A TCP socket on 127.0.0.1 that listens and never accepts: the kernel completes connections, and
/// nothing ever answers.
final class SilentListener: Sendable {
    let descriptor: Int32
    let port: Int

    init() throws {
        #if canImport(Glibc)
            let stream = Int32(SOCK_STREAM.rawValue)
        #else
            let stream = SOCK_STREAM
        #endif
        let socketDescriptor = socket(AF_INET, stream, 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let size = length
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { name in
                bind(socketDescriptor, name, size) == 0 && listen(socketDescriptor, 16) == 0
                    && getsockname(socketDescriptor, name, &length) == 0
            }
        }
        guard socketDescriptor >= 0, listening else { throw E2EError("no listening socket: errno \(errno)") }
        descriptor = socketDescriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }
}
