/// Runs the work of one e-mail address at a time: a login's (or a reset code's) read of the
/// address's throttle, the password check and the write of the next state happen for one attempt
/// before the next attempt on the same address begins. So when many attempts arrive at once —
/// `moa-server` serves them concurrently — each is counted, and the fifth wrong one locks the
/// address, as it does one at a time. Different addresses never wait for each other.
public actor AddressGate {
    /// The gate of this process (the throttle is per address, whoever asks).
    public static let shared = AddressGate()

    private var busy: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    public init() {}

    public func run<T: Sendable>(_ address: String, _ work: @Sendable () async throws -> T) async throws -> T {
        while busy.contains(address) {
            await withCheckedContinuation { waiting[address, default: []].append($0) }
        }
        busy.insert(address)
        defer { leave(address) }
        return try await work()
    }

    private func leave(_ address: String) {
        busy.remove(address)
        guard var queue = waiting[address], !queue.isEmpty else { return }
        let next = queue.removeFirst()
        waiting[address] = queue.isEmpty ? nil : queue
        next.resume()
    }
}
