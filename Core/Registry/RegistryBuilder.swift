/// Collects modules and turns them into a ``ValidatedRegistry`` — or into the list of *all* problems.
///
/// Validation checks, before anything is created: every requirement has exactly one provider,
/// no key is provided twice, there is no dependency cycle, and the root is provided.
public struct RegistryBuilder: Sendable {
    struct Entry: Sendable {
        let module: String
        let provider: Provider
    }

    let entries: [Entry]

    public init(modules: [any FeatureModule]) {
        entries = modules.flatMap { module in module.providers.map { Entry(module: module.name, provider: $0) } }
    }

    init(entries: [Entry]) {
        self.entries = entries
    }

    /// Validates the whole graph and links it; the registry resolves `root`.
    public func validate<Root: ServiceKey>(root: Root.Type) throws(RegistryProblems) -> ValidatedRegistry<Root> {
        let rootKey = KeyInfo(root)
        var problems: [RegistryProblem] = []

        // 1. One provider per key.
        var byKey: [KeyInfo: Entry] = [:]
        var providersOf: [KeyInfo: [String]] = [:]
        var order: [KeyInfo] = []
        for entry in entries {
            let key = entry.provider.key
            if providersOf[key] == nil { order.append(key) }
            providersOf[key, default: []].append(entry.module)
            if byKey[key] == nil { byKey[key] = entry }
        }
        for key in order where (providersOf[key]?.count ?? 0) > 1 {
            problems.append(.duplicate(key, providers: providersOf[key] ?? []))
        }

        // 2. Every requirement (and the root) provided.
        for key in order {
            guard let entry = byKey[key] else { continue }
            for requirement in entry.provider.requirements where byKey[requirement] == nil {
                problems.append(.missing(requirement, requiredBy: entry.module, forKey: key))
            }
        }
        if byKey[rootKey] == nil {
            problems.append(.missing(rootKey, requiredBy: "the composition root", forKey: nil))
        }

        // 3. No cycles; the same walk yields the order in which to link.
        let (linkOrder, cycles) = Self.topologicalOrder(order, requirements: { byKey[$0]?.provider.requirements ?? [] })
        problems += cycles.map(RegistryProblem.cycle)

        guard problems.isEmpty else { throw RegistryProblems(problems: problems) }

        // 4. Link: each node binds its already-linked requirements, so making a service cannot fail.
        var table = NodeTable()
        var linkProblems: [RegistryProblem] = []
        for key in linkOrder {
            guard let entry = byKey[key] else { continue }
            do {
                table.nodes[key.id] = try entry.provider.link(table)
            } catch {
                linkProblems.append(.missing(error.key, requiredBy: entry.module, forKey: key))
            }
        }
        let rootNode: Node<Root.Service>
        do {
            rootNode = try table.node(for: root)
        } catch {
            throw RegistryProblems(problems: linkProblems + [.missing(rootKey, requiredBy: "the composition root", forKey: nil)])
        }
        guard linkProblems.isEmpty else { throw RegistryProblems(problems: linkProblems) }

        let catalogue = order.compactMap { key in
            byKey[key].map { ProviderInfo(key: key, module: $0.module, scope: $0.provider.scope, requires: $0.provider.requirements) }
        }
        return ValidatedRegistry(builder: self, rootNode: rootNode, catalogue: catalogue)
    }

    /// Depth-first order (requirements before dependents) and every cycle found, each reported once.
    static func topologicalOrder(
        _ keys: [KeyInfo],
        requirements: (KeyInfo) -> [KeyInfo]
    ) -> (order: [KeyInfo], cycles: [[KeyInfo]]) {
        enum Mark { case visiting, done }
        var marks: [KeyInfo: Mark] = [:]
        var order: [KeyInfo] = []
        var cycles: [[KeyInfo]] = []
        var reported = Set<Set<KeyInfo>>()
        var path: [KeyInfo] = []

        func visit(_ key: KeyInfo) {
            switch marks[key] {
            case .done?: return
            case .visiting?:
                if let start = path.firstIndex(of: key) {
                    let cycle = Array(path[start...])
                    if reported.insert(Set(cycle)).inserted { cycles.append(cycle + [key]) }
                }
                return
            case nil: break
            }
            marks[key] = .visiting
            path.append(key)
            for requirement in requirements(key) { visit(requirement) }
            path.removeLast()
            marks[key] = .done
            order.append(key)
        }
        for key in keys { visit(key) }
        return (order, cycles)
    }
}

/// Who provides a key, for `moa doctor` and tests.
public struct ProviderInfo: Sendable, Hashable {
    public let key: KeyInfo
    public let module: String
    public let scope: Scope
    public let requires: [KeyInfo]
}
