import SharedKit

/// A linked service: its dependencies are already bound, so making it cannot fail.
protocol AnyNode: Sendable {}

final class Node<Service: Sendable>: AnyNode {
    private let scope: Scope
    private let make: @Sendable () -> Service
    /// Held while a singleton is being made: concurrent first callers wait and get the same instance.
    /// Nested locking follows the dependency graph, which validation proved acyclic.
    private let cached = Locked<Service?>(nil)

    init(scope: Scope, make: @escaping @Sendable () -> Service) {
        self.scope = scope
        self.make = make
    }

    func instance() -> Service {
        switch scope {
        case .transient:
            return make()
        case .singleton:
            return cached.withLock { cached in
                if let existing = cached { return existing }
                let made = make()
                cached = made
                return made
            }
        }
    }
}

/// Why linking could not bind a requirement (only reachable while validating).
struct LinkFailure: Error {
    let key: KeyInfo
}

/// The nodes linked so far, by key. Used only while validating.
struct NodeTable: Sendable {
    var nodes: [ObjectIdentifier: any AnyNode] = [:]

    func node<K: ServiceKey>(for key: K.Type) throws(LinkFailure) -> Node<K.Service> {
        guard let node = nodes[ObjectIdentifier(key)] as? Node<K.Service> else {
            throw LinkFailure(key: KeyInfo(key))
        }
        return node
    }
}
