/// Where a screen sends the user next.
public enum Navigation<Route: Hashable & Sendable>: Hashable, Sendable {
    /// Show `route` on top of the current screen (back returns here).
    case push(Route)
    /// Show `route` instead of the current screen.
    case replace(Route)
    /// Go back one screen; back from the first screen ends the flow.
    case pop
    /// Go back to the first screen.
    case popToRoot
    /// End the flow.
    case finish
}

/// A navigation stack with a record of every screen shown, in order (what coordinator tests assert).
@MainActor
public final class Router<Route: Hashable & Sendable> {
    public private(set) var stack: [Route]
    public private(set) var history: [Route]

    public init(root: Route) {
        stack = [root]
        history = [root]
    }

    /// The screen on top, or `nil` once the flow has ended.
    public var current: Route? { stack.last }

    /// Applies a navigation; returns `false` once the flow has ended.
    @discardableResult
    public func apply(_ navigation: Navigation<Route>) -> Bool {
        switch navigation {
        case .push(let route):
            stack.append(route)
        case .replace(let route):
            if stack.isEmpty { stack = [route] } else { stack[stack.count - 1] = route }
        case .pop:
            _ = stack.popLast()
        case .popToRoot:
            stack = Array(stack.prefix(1))
        case .finish:
            stack = []
        }
        guard let current else { return false }
        history.append(current)
        return true
    }
}

/// Owns the navigation of one flow: shows the screen of the current route and follows where it
/// says to go. A coordinator starts another feature's flow only through that feature's Interface
/// (a starter protocol it was given), never by constructing its screens.
@MainActor
public protocol Coordinator: AnyObject {
    associatedtype Route: Hashable & Sendable

    var router: Router<Route> { get }

    /// Shows the screen for `route` and returns where to go next.
    func show(_ route: Route) async -> Navigation<Route>
}

extension Coordinator {
    /// Runs the flow until it finishes.
    public func run() async {
        while let route = router.current {
            let next = await show(route)
            guard router.apply(next) else { return }
        }
    }
}
