import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-shot HTTP server on 127.0.0.1 for the Network tests: answers one connection with a canned
/// response and hands back the raw request. Bounded: gives up after `timeout` seconds.
final class NetworkLoopbackServer: Sendable {
    let port: UInt16
    private let socket: Int32

    enum Failure: Error { case socket(String) }

    /// Binds an ephemeral port on 127.0.0.1; with `listening: false` the port refuses connections.
    init(listening: Bool = true) throws {
        #if canImport(Glibc)
            let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure.socket("socket") }
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        var actual = sockaddr_in()
        var actualLength = length
        let named = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actualLength) }
        }
        guard bound == 0, named == 0, !listening || listen(fd, 4) == 0 else {
            close(fd)
            throw Failure.socket("bind/listen")
        }
        socket = fd
        port = UInt16(bigEndian: actual.sin_port)
    }

    deinit { close(socket) }

    var baseURL: URL {
        get throws {
            guard let url = URL(string: "http://127.0.0.1:\(port)") else { throw Failure.socket("url") }
            return url
        }
    }

    /// Accepts one connection, reads the request head, writes `response`, closes; `nil` on timeout.
    func serveOnce(_ response: String, timeout: Int32 = 5) async -> String? {
        let fd = socket
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(
                    returning: Self.answer(fd, response: Data(response.utf8), timeoutMs: timeout * 1000))
            }
            thread.start()
        }
    }

    private static func answer(_ fd: Int32, response: Data, timeoutMs: Int32) -> String? {
        var listener = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&listener, 1, timeoutMs) == 1 else { return nil }
        let client = accept(fd, nil, nil)
        guard client >= 0 else { return nil }
        defer { close(client) }
        var request = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while request.range(of: Data("\r\n\r\n".utf8)) == nil {
            var reader = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&reader, 1, timeoutMs) == 1 else { return nil }
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { break }
            request.append(contentsOf: buffer[0..<count])
        }
        _ = response.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
        return String(decoding: request, as: UTF8.self)
    }
}
