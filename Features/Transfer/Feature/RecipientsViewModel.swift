import ArgumentParser
import CommandKit
import DesignSystem
import Foundation
import SharedKit
import TransferDomain
import TransferInterface
import ViewModelKit

/// The recipients screens' view model: list, add, remove. The rules are RecipientBook's.
@MainActor
public final class RecipientsViewModel: ReportingViewModel {
    public static let unexpectedErrorSentence = TransferViewModel.unexpectedErrorSentence

    public enum Input: Sendable {
        case list
        case add(number: String, alias: String)
        case remove(alias: String)
    }

    public typealias Action = Input

    public enum Outcome: Sendable, Equatable {
        case list(Recipients)
        case added(FavouriteRecipient)
        case removed(FavouriteRecipient)
    }

    public typealias State = OutcomeState<Outcome>

    public private(set) var state = State()
    private let book: any RecipientUseCases

    public nonisolated init(book: any RecipientUseCases) {
        self.book = book
    }

    public func transform(_ input: Input) -> [Action] { [input] }

    public func perform(_ action: Action) async throws {
        state = State(outcome: nil, error: nil, isWorking: true)
        defer { state.isWorking = false }
        switch action {
        case .list: state.outcome = .list(try await book.recipients())
        case .add(let number, let alias): state.outcome = .added(try await book.add(number: number, alias: alias))
        case .remove(let alias): state.outcome = .removed(try await book.remove(alias: alias))
        }
    }

    public func show(_ error: any UserFacingError) {
        state.fail(with: error)
    }
}
