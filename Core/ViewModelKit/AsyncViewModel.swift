/// The view-model shape every screen uses, from the iOS apps Moa grew from:
///
///     Input ──transform──▶ [Action] ──perform──▶ state
///                                      └─ throws ─▶ handleError
///
/// `transform` decides *what* to do for an input (pure, no side effects); `perform` does one action
/// (calls a use case, updates `state`); any error goes to the single `handleError`, which turns it
/// into state the screen shows. Commands and the interactive mode drive the same view models.
///
/// `send` returns when every action of the input has been performed, so a test sends an input,
/// awaits, and asserts the state — no sleeps, no expectations.
@MainActor
public protocol AsyncViewModel: AnyObject {
    associatedtype Input: Sendable
    associatedtype Action: Sendable
    associatedtype State

    var state: State { get }

    /// Maps an input to the actions to perform, in order.
    func transform(_ input: Input) -> [Action]

    /// Performs one action. Throwing stops the remaining actions of this input.
    func perform(_ action: Action) async throws

    /// The one place errors become state.
    func handleError(_ error: any Error)
}

extension AsyncViewModel {
    /// Sends an input and returns when all its actions are done (or one failed and was handled).
    public func send(_ input: Input) async {
        for action in transform(input) {
            do {
                try await perform(action)
            } catch {
                handleError(error)
                return
            }
        }
    }
}

/// The lifecycle of something loaded asynchronously, for view-model state.
public enum Loadable<Value> {
    case idle
    case loading
    case loaded(Value)
    case failed(message: String)

    public var value: Value? {
        if case .loaded(let value) = self { return value }
        return nil
    }

    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }
}

extension Loadable: Equatable where Value: Equatable {}
extension Loadable: Sendable where Value: Sendable {}
