import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOSSL
import SharedKit
import Testing

@testable import APIClient
@testable import APITransport
@testable import TransferRemote

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// What `moa` says when the server cannot be used (issue 24, item 9): each failure in words, with the
/// exit status that tells a script what to do — a certificate this machine does not trust is
/// configuration (78), not "try again later"; a refused connection sent nothing; an address the HTTP
/// client cannot use is said as such; a server that is not moa-server is named so.
@Suite("moa · what a failed request says")
struct ClientErrorTests {
    static let server = "https://bank.example"

    /// A real moa-server on 127.0.0.1 with a certificate from a CA the test makes: refused as
    /// untrusted (78) without the CA, answered with it (`--ca-file`), and refused again at an address
    /// the certificate does not name.
    @Test func anUntrustedCertificateIsConfigurationNotATemporaryFailure() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("openssl is missing in CI") }
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moa-ca-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pki = try await TestPKI.make(in: folder, serverIP: "127.0.0.1")
        let (process, line) = try await Binaries.offloaded {
            try ServerProcessTests.start(
                data: folder.appendingPathComponent("bank"), extra: ["--tls-cert", pki.certificate.path, "--tls-key", pki.key.path])
        }
        defer { if process.isRunning { process.terminate() } }
        let port = try #require(Int(line.split(separator: ":").last ?? ""), "\(line)")

        let untrusted = RemoteAPI(address: try ServerAddress("https://127.0.0.1:\(port)", origin: .option))
        let refused = await #expect(throws: ServerNotTrusted.self) { _ = try await untrusted.health() }
        #expect(refused?.exitStatus == .configuration)
        #expect(
            refused?.message
                == "moa-server at https://127.0.0.1:\(port) presented a certificate this machine does not trust (its chain does not lead to a CA this machine trusts, or it has expired)."
        )
        #expect(refused?.hint?.contains("--ca-file") == true)
        #expect(refused?.hint?.lowercased().contains("try again") == false)

        var address = try ServerAddress("https://127.0.0.1:\(port)", origin: .option)
        address.caFile = try ServerTrust.checked(pki.ca.path, origin: .option)
        #expect(try await RemoteAPI(address: address).health().apiVersion == RemoteAPI.apiVersion)

        // The same certificate served at 127.0.0.2: a CA moa trusts, but not that address's certificate.
        let (elsewhere, elsewhereLine) = try await Binaries.offloaded {
            try ServerProcessTests.start(
                data: folder.appendingPathComponent("bank-2"),
                extra: ["--host", "127.0.0.2", "--tls-cert", pki.certificate.path, "--tls-key", pki.key.path])
        }
        defer { if elsewhere.isRunning { elsewhere.terminate() } }
        let otherPort = try #require(Int(elsewhereLine.split(separator: ":").last ?? ""), "\(elsewhereLine)")
        var other = try ServerAddress("https://127.0.0.2:\(otherPort)", origin: .option)
        other.caFile = address.caFile
        let otherName = await #expect(throws: ServerNotTrusted.self) { _ = try await RemoteAPI(address: other).health() }
        #expect(otherName?.message.hasSuffix("does not trust (it is not for this host name).") == true, "\(String(describing: otherName))")
    }

    @Test func aCAFileThatCannotBeUsedIsSaidBeforeAnyRequest() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moa-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let notPEM = folder.appendingPathComponent("ca.pem")
        try Data("not a certificate\n".utf8).write(to: notPEM)
        #expect(
            throws: CAFileUnusable(
                path: notPEM.path, origin: .environment, reason: "it holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
        ) {
            _ = try ServerTrust.checked(notPEM.path, origin: .environment)
        }
        for special in ["/dev/zero", folder.path] {
            let refused = #expect(throws: CAFileUnusable.self) { _ = try ServerTrust.checked(special, origin: .environment) }
            #expect(refused?.reason == "it is not a regular file", "\(special)")
        }
        let missing = folder.appendingPathComponent("missing.pem").path
        let error = #expect(throws: CAFileUnusable.self) { _ = try ServerTrust.checked(missing, origin: .option) }
        #expect(error?.message == "The CA file “\(missing)” (--ca-file) cannot be used: it cannot be read.")
        #expect(error?.exitStatus == .configuration)
    }

    /// `MOA_SERVER_TIMEOUT`: 1 to 300 seconds, anything else one sentence and 78.
    @Test func theRequestTimeoutIsSecondsFromOneTo300() throws {
        #expect(try ServerChoice.timeout("10") == 10)
        #expect(try ServerChoice.timeout(" 2.5 ") == 2.5)
        for bad in ["0", "301", "-5", "1e3", "ten", "", "nan", "inf", "3\u{1B}[2J"] {
            let error = #expect(throws: ServerTimeoutError.self, "\(bad)") { _ = try ServerChoice.timeout(bad) }
            #expect(error?.exitStatus == .configuration)
            #expect(error?.message.hasSuffix("is not a number of seconds from 1 to 300.") == true)
            #expect(error?.message.contains("\u{1B}") == false)
        }
    }

    /// Errors the HTTP client raises, each said in words with whether anything was sent.
    @Test func aRefusedConnectionSentNothingAndATimeoutMayHave() throws {
        let refused = try #require(
            RemoteAPI.failure(IOError(errnoCode: ECONNREFUSED, reason: "connect"), server: Self.server) as? ServerUnreachable)
        #expect(refused.sent == .nothing)
        #expect(refused.exitStatus == .temporaryFailure)
        #expect(
            refused.message == "Cannot reach moa-server at https://bank.example: the connection was refused (is moa-server running there?)."
        )
        #expect(refused.hint?.hasPrefix("Nothing reached it") == true)
        let noRoute = try #require(
            RemoteAPI.failure(IOError(errnoCode: ENETUNREACH, reason: "connect"), server: Self.server) as? ServerUnreachable)
        #expect(noRoute.sent == .nothing && noRoute.message.hasSuffix(": this machine has no route to that address."))
        // The same errno on a connection already open: the request may have gone.
        let routeLost = try #require(
            RemoteAPI.failure(IOError(errnoCode: EHOSTUNREACH, reason: "write(descriptor:pointer:size:)"), server: Self.server)
                as? ServerUnreachable)
        #expect(routeLost.sent == .perhaps)
        let handshake = try #require(
            RemoteAPI.failure(NIOSSLError.handshakeFailed(.sslError([])), server: Self.server) as? ServerUnreachable)
        #expect(handshake.sent == .nothing)
        let slow = try #require(RemoteAPI.failure(HTTPClientError.connectTimeout, server: Self.server) as? ServerUnreachable)
        #expect(slow.sent == .nothing)

        let timedOut = try #require(RemoteAPI.failure(HTTPClientError.readTimeout, server: Self.server) as? ServerUnreachable)
        #expect(timedOut.sent == .perhaps)
        #expect(timedOut.message == "Cannot reach moa-server at https://bank.example: no answer came within 30 seconds.")
        // Only a send that may have arrived speaks of keys; a deposit's hint does not (it did).
        #expect(timedOut.hint?.contains("key") == false)
        let lost = TransferOutcomeUnknown(key: "k-1", reason: timedOut)
        #expect(lost.message.contains("may or may not have been sent"))
        #expect(lost.hint == "Send it again with --idempotency-key k-1: it is sent once either way.")
        #expect(lost.fields == ["idempotency_key": "k-1", "outcome": "unknown"])
        let dropped = try #require(RemoteAPI.failure(HTTPClientError.remoteConnectionClosed, server: Self.server) as? ServerUnreachable)
        #expect(dropped.sent == .perhaps && dropped.message.hasSuffix(": the connection was lost before the answer came."))
        #expect(
            (RemoteAPI.failure(NIOSSLExtraError.failedToValidateHostname, server: Self.server) as? ServerNotTrusted)?.exitStatus
                == .configuration)
        for error in [refused, timedOut, dropped] as [any UserFacingError] { #expect(!error.message.contains("Error(")) }
    }

    /// A connection refused for real (a port that was just closed) and a host that does not exist.
    @Test func aRealRefusalAndAnUnknownHostSentNothing() async throws {
        let listener = try SilentListener()
        let port = listener.port
        listener.close()
        let refused = await #expect(throws: ServerUnreachable.self) {
            _ = try await RemoteAPI(address: try ServerAddress("http://127.0.0.1:\(port)", origin: .option)).health()
        }
        #expect(refused?.sent == .nothing)
        #expect(refused?.reason == "the connection was refused (is moa-server running there?)", "\(String(describing: refused))")
        let unknown = await #expect(throws: ServerUnreachable.self) {
            _ = try await RemoteAPI(address: try ServerAddress("https://no-such-host.invalid", origin: .option), timeout: 10).health()
        }
        #expect(unknown?.sent == .nothing)
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

    /// Issue 24, item 8: `moa` waiting on a server that takes the connection and never answers
    /// sleeps instead of spinning a core (URLSession on Linux kept a write source armed on the
    /// writable socket: a 3-second wait cost 3 seconds of CPU). The shell's `times` gives the CPU
    /// time of `moa` alone; `MOA_SERVER_TIMEOUT` bounds the wait.
    @Test func waitingForASilentServerCostsNoCPU() async throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("moa-wait-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let start = ContinuousClock.now
        let run = try await Binaries.offloaded {
            try Binaries.runProcess(
                URL(fileURLWithPath: "/bin/bash"),
                ["-c", #""$0" doctor > /dev/null 2>&1; echo "status $?"; times"#, Binaries.url("moa").path],
                stdin: nil,
                environment: [
                    "MOA_HOME": home.path, "MOA_SERVER_URL": "http://127.0.0.1:\(listener.port)", "MOA_SERVER_TIMEOUT": "3",
                ])
        }
        let waited = ContinuousClock.now - start
        let lines = run.out.split(separator: "\n")
        #expect(lines.first == "status 69", "doctor says the server is unusable: \(run.out)")
        // `times`: the shell's user and system time, then its children's (moa's).
        let children = try #require(lines.last, "\(run.out)").split(separator: " ").map { field -> Double in
            let parts = field.dropLast().split(separator: "m")
            return (Double(parts.first ?? "") ?? 0) * 60 + (Double(parts.last ?? "") ?? 0)
        }
        let cpu = children.reduce(0, +)
        #expect(waited >= .seconds(2.9), "moa waited for its deadline")
        #expect(cpu < 1.5, "moa used \(cpu) s of CPU while it waited \(waited): \(run.out)")
    }

    /// `http://[::1]:PORT` reaches a server listening on ::1 (Foundation on Linux refused IPv6
    /// literals as "unsupported URL"); an address the HTTP client cannot use is said as such.
    @Test func anIPv6LiteralIsReachedAndAnUnusableAddressIsSaidAsSuch() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moa-v6-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (process, line) = try await Binaries.offloaded {
            try ServerProcessTests.start(data: folder, extra: ["--host", "::1"])
        }
        defer { if process.isRunning { process.terminate() } }
        if let port = Int(line.split(separator: ":").last ?? "") {
            let api = RemoteAPI(address: try ServerAddress("http://[::1]:\(port)", origin: .option))
            #expect(try await api.health().apiVersion == RemoteAPI.apiVersion)
        } else {
            // A machine without IPv6 on its loopback cannot listen there: said, not failed.
            print("Skipped the IPv6 literal check: moa-server could not listen on ::1 (\(line)).")
        }
        let error = try #require(RemoteAPI.failure(HTTPClientError.invalidURL, server: "http://bank") as? ServerAddressUnusable)
        #expect(error.exitStatus == .configuration)
        #expect(error.message == "Cannot use the server address http://bank: its HTTP client cannot use it.")
    }

    @Test func aServerThatIsNotMoaServerIsNamedSo() {
        let other = ProblemDecodingMiddleware.problem(status: .init(code: 501), data: Data(), retryAfter: nil)
        #expect(other.message.hasPrefix("The server answered HTTP 501"))
        #expect(other.message.hasSuffix(" without a problem document, which moa-server always sends."))
        #expect(!other.message.contains(" ."))
        #expect(other.exitStatus == .unavailable)
        #expect(other.hint?.contains("moa doctor") == true)
        let page = ProblemDecodingMiddleware.problem(status: .notFound, data: Data("<html>nginx</html>".utf8), retryAfter: nil)
        #expect(page.message.hasPrefix("The server answered HTTP 404 Not Found without a problem document"))
        // The connection ceiling's bare 503 (or a proxy's): busy for now, 75.
        let busy = ProblemDecodingMiddleware.problem(status: .serviceUnavailable, data: Data(), retryAfter: "1")
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
