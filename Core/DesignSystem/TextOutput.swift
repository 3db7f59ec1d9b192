import SharedKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where rendered text goes. Rendering is pure (`String`); writing is this one small seam.
public protocol TextOutput: Sendable {
    /// Writes `s` exactly as given (no newline is added).
    func write(_ s: String)
}

extension TextOutput {
    /// Writes `s` followed by a newline.
    public func writeLine(_ s: String = "") { write(s + "\n") }
}

/// Standard output or standard error, written with `write(2)` (unbuffered, in order).
public struct StreamOutput: TextOutput {
    public let stream: StandardStream

    public init(_ stream: StandardStream) { self.stream = stream }

    public func write(_ s: String) {
        guard !s.isEmpty else { return }
        fflush(nil) // keep order with anything printed through stdio buffers
        var bytes = Array(s.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(stream.fileDescriptor, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return // the reader went away or the disk is full: nothing sensible left to do
                }
            }
        }
    }
}

private func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
        return Darwin.write(descriptor, pointer, count)
    #elseif canImport(Musl)
        return Musl.write(descriptor, pointer, count)
    #else
        return Glibc.write(descriptor, pointer, count)
    #endif
}

extension TextOutput where Self == StreamOutput {
    /// The process's standard output.
    public static var standardOutput: StreamOutput { StreamOutput(.output) }
    /// The process's standard error.
    public static var standardError: StreamOutput { StreamOutput(.error) }
}

/// Collects everything written, for tests. Safe to share between tasks.
public final class CapturingOutput: TextOutput {
    private let buffer = Locked("")

    public init() {}

    public func write(_ s: String) { buffer.withLock { $0 += s } }

    /// Everything written so far.
    public var text: String { buffer.withLock { $0 } }

    /// Forgets everything written so far.
    public func clear() { buffer.withLock { $0 = "" } }
}
