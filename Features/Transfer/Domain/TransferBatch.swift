import Foundation
import SharedKit
import TransferInterface

/// One row of a batch file, as written (fields trimmed), and where it is in the file.
public struct BatchRow: Sendable, Hashable {
    /// The row's line in the file (the header is line 1).
    public let line: Int
    public let from: String
    public let to: String
    public let amount: String
    public let memo: String?
    /// The key written in the row (`nil`: none, one is derived).
    public let idempotencyKey: String?

    public init(line: Int, from: String, to: String, amount: String, memo: String?, idempotencyKey: String?) {
        self.line = line
        self.from = from
        self.to = to
        self.amount = amount
        self.memo = memo.flatMap { $0.isEmpty ? nil : $0 }
        self.idempotencyKey = idempotencyKey.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The row's key: the one written, or one derived from the row's content and line, so that running
    /// the same file again finds the rows already done instead of sending them twice.
    public var effectiveKey: String {
        idempotencyKey ?? Self.derivedKey(line: line, fields: [from, to, amount, memo ?? ""])
    }

    /// What the row asks to send.
    public var draft: TransferDraft {
        TransferDraft(from: from, to: to, amount: amount, memo: memo, idempotencyKey: effectiveKey)
    }

    /// `batch-` and 32 hex digits: two 64-bit FNV-1a hashes (different offsets) of the line number and
    /// the fields, separated by a unit separator. Stable across runs, machines and Swift versions.
    static func derivedKey(line: Int, fields: [String]) -> String {
        let bytes = Array(([String(line)] + fields).joined(separator: "\u{1F}").utf8)
        func fnv1a(_ offset: UInt64) -> UInt64 {
            var hash = offset
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            return hash
        }
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return "batch-" + hex(fnv1a(0xcbf2_9ce4_8422_2325)) + hex(fnv1a(0x6c62_272e_07bb_0142))
    }
}

/// What became of one row.
public enum BatchRowOutcome: Sendable, Hashable {
    /// Sent now.
    case done(TransferReceipt)
    /// Already sent by an earlier run (same key, same request): nothing posted.
    case skipped(TransferReceipt)
    /// Refused: the reason, one sentence.
    case refused(reason: String)
}

/// Runs a batch's rows one by one, each in its own transaction with its own key. Rows are
/// independent: a refused row is reported and the next one runs. Anything that is not about the row
/// itself (not logged in, the database failing) stops the batch: the caller reports what was done.
public struct TransferBatch: Sendable {
    private let sendMoney: any TransferSending

    public init(sendMoney: any TransferSending) {
        self.sendMoney = sendMoney
    }

    /// Resolves the user and their limits once for the whole batch.
    public func start() async throws -> Run {
        Run(sending: try await sendMoney.startBatch())
    }

    public struct Run: Sendable {
        let sending: any BatchSending

        /// Sends one row. Throws only what must stop the batch.
        public func execute(_ row: BatchRow) async throws -> BatchRowOutcome {
            do {
                let receipt = try await sending.send(row.draft)
                return receipt.replayed ? .skipped(receipt) : .done(receipt)
            } catch let error as any UserFacingError where TransferBatch.isAboutTheRow(error) {
                return .refused(reason: error.message)
            }
        }
    }

    /// Whether an error refuses just the row (a rule, bad data in it, something it names that does not
    /// exist), rather than stopping the batch (login, permissions, the database, a bug).
    static func isAboutTheRow(_ error: any UserFacingError) -> Bool {
        switch error.exitStatus {
        case .refused, .usage, .dataError, .noInput, .unavailable: true
        case .ok, .software, .ioError, .temporaryFailure, .noPermission, .configuration, .interrupted: false
        }
    }
}
