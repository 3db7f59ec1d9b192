import SharedKit
import TransferDomain
import TransferInterface
import ViewModelKit

/// The transfer screens' view model: `moa transfer send/list/show` (and the interactive mode's
/// send-money flow) send it an input and render its state. No rule lives here: the use cases decide.
@MainActor
public final class TransferViewModel: ReportingViewModel {
    public static let unexpectedErrorSentence = "The transfer failed unexpectedly"

    public enum Input: Sendable {
        case send(TransferDraft)
        case list(limit: Int, after: String?)
        case show(String)
    }

    public typealias Action = Input

    /// What happened, for the screen to show.
    public enum Outcome: Sendable, Equatable {
        case sent(TransferReceipt)
        case page(TransferPage)
        case transfer(TransferSummary)
    }

    public typealias State = OutcomeState<Outcome>

    public private(set) var state = State()
    private let starter: any TransferStarter
    private let reading: any TransferReading

    public nonisolated init(starter: any TransferStarter, reading: any TransferReading) {
        self.starter = starter
        self.reading = reading
    }

    public func transform(_ input: Input) -> [Action] { [input] }

    public func perform(_ action: Action) async throws {
        state = State(outcome: nil, error: nil, isWorking: true)
        defer { state.isWorking = false }
        switch action {
        case .send(let draft):
            state.outcome = .sent(try await starter.send(draft))
        case .list(let limit, let after):
            state.outcome = .page(try await reading.transfers(limit: limit, after: after))
        case .show(let id):
            state.outcome = .transfer(try await reading.transfer(id: TransferID(id)))
        }
    }

    public func show(_ error: any UserFacingError) {
        state.fail(with: error)
    }
}
