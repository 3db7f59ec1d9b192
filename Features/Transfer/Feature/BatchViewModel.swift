import SharedKit
import TransferDomain
import TransferInterface
import ViewModelKit

/// The batch screen: loads a CSV file, then sends its rows one by one (each in its own transaction,
/// with its own idempotency key), reporting progress after each. It stops between rows when asked
/// to (a signal), and stops at once on an error that is not about a row; what was done stays done.
@MainActor
public final class BatchViewModel: ReportingViewModel {
    public static let unexpectedErrorSentence = TransferViewModel.unexpectedErrorSentence

    public enum Input: Sendable { case run(path: String) }
    public enum Action: Sendable {
        case load(path: String)
        case execute
    }

    public struct State: Sendable {
        public var file: String?
        /// The rows of the file, once loaded.
        public var rows: [BatchRow] = []
        /// The outcome of `rows[i]` for each row run so far, in order.
        public var outcomes: [BatchRowOutcome] = []
        /// Stopped between rows by a request (SIGTERM, SIGINT).
        public var interrupted = false
        /// What stopped the batch, or refused the file.
        public var error: (any UserFacingError)?

        public var summary: BatchSummary { BatchSummary(rows: rows.count, outcomes: outcomes) }
    }

    public private(set) var state = State()
    private let batch: TransferBatch
    private let shouldStop: @Sendable () -> Bool
    private let onProgress: @MainActor (_ done: Int, _ total: Int) -> Void

    /// - Parameters:
    ///   - shouldStop: asked before each row; `true` ends the batch there.
    ///   - onProgress: told after the file is loaded and after each row.
    public nonisolated init(
        batch: TransferBatch, shouldStop: @escaping @Sendable () -> Bool = { false },
        onProgress: @escaping @MainActor (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) {
        self.batch = batch
        self.shouldStop = shouldStop
        self.onProgress = onProgress
    }

    public func transform(_ input: Input) -> [Action] {
        switch input {
        case .run(let path): [.load(path: path), .execute]
        }
    }

    public func perform(_ action: Action) async throws {
        switch action {
        case .load(let path):
            state = State(file: path)
            state.rows = try BatchFile.load(path: path).rows
            onProgress(0, state.rows.count)
        case .execute:
            guard !state.rows.isEmpty else { return }
            let run = try await batch.start()
            for row in state.rows {
                if shouldStop() {
                    state.interrupted = true
                    return
                }
                state.outcomes.append(try await run.execute(row))
                onProgress(state.outcomes.count, state.rows.count)
            }
        }
    }

    public func show(_ error: any UserFacingError) {
        state.error = error
    }
}

/// How a batch went, by row.
public struct BatchSummary: Sendable, Equatable, Encodable {
    public var total = 0
    public var done = 0
    public var refused = 0
    public var skipped = 0
    public var notRun = 0

    public init(total: Int, done: Int, refused: Int, skipped: Int, notRun: Int) {
        (self.total, self.done, self.refused, self.skipped, self.notRun) = (total, done, refused, skipped, notRun)
    }

    public init(rows: Int, outcomes: [BatchRowOutcome]) {
        total = rows
        for outcome in outcomes {
            switch outcome {
            case .done: done += 1
            case .skipped: skipped += 1
            case .refused: refused += 1
            }
        }
        notRun = rows - outcomes.count
    }

    /// The last line `moa transfer batch` prints, meant for scripts too:
    /// `Summary: 12 rows: 8 done, 1 refused, 3 skipped (already done), 0 not run.`
    public var line: String {
        "Summary: \(total) row\(total == 1 ? "" : "s"): \(done) done, \(refused) refused, \(skipped) skipped (already done), \(notRun) not run."
    }
}
