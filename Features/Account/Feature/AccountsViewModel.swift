import AccountDomain
import AccountInterface
import SharedKit
import ViewModelKit

/// The accounts screens' view model: `moa account …` commands and the interactive home/detail
/// screens send it inputs and render its state.
@MainActor
public final class AccountsViewModel: ReportingViewModel {
    public static let unexpectedErrorSentence = "The account operation failed"

    public enum Input: Sendable {
        case open(kind: AccountKind, name: String, currency: String)
        case list
        case show(String)
        case rename(String, to: String)
        case deposit(String, amount: String, memo: String?)
        case withdraw(String, amount: String, memo: String?)
        case history(String, limit: Int, after: String?)
        case close(String)
    }

    public typealias Action = Input

    public enum Outcome: Sendable, Equatable {
        case opened(AccountSummary)
        case accounts([AccountSummary])
        case account(AccountSummary, recent: [LedgerEntry])
        case renamed(AccountSummary)
        case moved(LedgerEntry)
        case history(AccountSummary, HistoryPage)
        case closed(AccountSummary)
    }

    public typealias State = OutcomeState<Outcome>

    public private(set) var state = State()
    private let service: any AccountUseCases

    public nonisolated init(service: any AccountUseCases) {
        self.service = service
    }

    public func transform(_ input: Input) -> [Action] { [input] }

    public func perform(_ action: Action) async throws {
        state = State()
        switch action {
        case .open(let kind, let name, let currency):
            state.outcome = .opened(try await service.open(kind: kind, name: name, currency: currency))
        case .list:
            state.outcome = .accounts(try await service.list())
        case .show(let reference):
            let account = try await service.show(reference)
            state.outcome = .account(account, recent: try await service.history(of: reference, limit: 5).entries)
        case .rename(let reference, let name):
            state.outcome = .renamed(try await service.rename(reference, to: name))
        case .deposit(let reference, let amount, let memo):
            state.outcome = .moved(try await service.deposit(amount, to: reference, memo: memo))
        case .withdraw(let reference, let amount, let memo):
            state.outcome = .moved(try await service.withdraw(amount, from: reference, memo: memo))
        case .history(let reference, let limit, let cursor):
            let account = try await service.show(reference)
            state.outcome = .history(account, try await service.history(of: reference, limit: limit, after: cursor))
        case .close(let reference):
            state.outcome = .closed(try await service.close(reference))
        }
    }

    public func show(_ error: any UserFacingError) {
        state.fail(with: error)
    }
}
