import Testing
import ViewModelKit

private struct Failure: Error {}

/// A small view model in the kit's shape: load a balance, then refresh it.
@MainActor
private final class BalanceViewModel: AsyncViewModel {
    enum Input: Sendable { case appeared, refreshTapped }
    enum Action: Sendable { case showLoading, load }
    struct State: Equatable {
        var balance: Loadable<Int> = .idle
        var error: String?
    }

    private(set) var state = State()
    private var answers: [Result<Int, Failure>]
    private(set) var performed: [Action] = []

    init(answers: [Result<Int, Failure>]) { self.answers = answers }

    func transform(_ input: Input) -> [Action] {
        switch input {
        case .appeared: [.showLoading, .load]
        case .refreshTapped: [.load]
        }
    }

    func perform(_ action: Action) async throws {
        performed.append(action)
        switch action {
        case .showLoading:
            state.balance = .loading
        case .load:
            await Task.yield() // a real suspension point, as a use case call would have
            let answer = answers.removeFirst()
            state.balance = .loaded(try answer.get())
            state.error = nil
        }
    }

    func handleError(_ error: any Error) {
        state.balance = .failed(message: "Could not load the balance.")
        state.error = "Could not load the balance."
    }
}

@MainActor
private final class ScriptedCoordinator: Coordinator {
    enum Route: Hashable, Sendable {
        case home, accounts
        case detail(Int)
        case send(Int)
        case receipt
    }
    let router = Router(root: Route.home)
    private var script: [Navigation<Route>]

    init(script: [Navigation<Route>]) { self.script = script }

    func show(_ route: Route) async -> Navigation<Route> {
        script.isEmpty ? .finish : script.removeFirst()
    }
}

@Suite("View-model kit")
@MainActor
struct ViewModelKitTests {
    @Test func sendReturnsWhenEveryActionIsPerformed() async {
        let viewModel = BalanceViewModel(answers: [.success(10_000)])
        await viewModel.send(.appeared)
        #expect(viewModel.state == .init(balance: .loaded(10_000), error: nil))
        #expect(viewModel.performed.count == 2)
    }

    @Test func anErrorGoesToTheOneHandlerAndStopsTheRemainingActions() async {
        let viewModel = BalanceViewModel(answers: [.failure(Failure()), .success(5)])
        await viewModel.send(.appeared)
        #expect(viewModel.state.balance == .failed(message: "Could not load the balance."))
        await viewModel.send(.refreshTapped)
        #expect(viewModel.state == .init(balance: .loaded(5), error: nil))
    }

    @Test func aCoordinatorRecordsTheRoutesTaken() async {
        let coordinator = ScriptedCoordinator(script: [
            .push(.accounts), .push(.detail(1)), .push(.send(1)), .replace(.receipt), .pop, .popToRoot, .finish,
        ])
        await coordinator.run()
        #expect(coordinator.router.history == [.home, .accounts, .detail(1), .send(1), .receipt, .detail(1), .home])
        #expect(coordinator.router.current == nil)
    }

    @Test func popFromTheFirstScreenEndsTheFlow() async {
        let coordinator = ScriptedCoordinator(script: [.pop])
        await coordinator.run()
        #expect(coordinator.router.history == [.home])
        #expect(coordinator.router.stack.isEmpty)
        #expect(coordinator.router.apply(.pop) == false) // nothing left to pop: no crash
    }
}
