import CommandKit
import DesignSystem
import Foundation
import Registry
import SettingsData
import SettingsDomain
import SettingsFeature
import SettingsInterface
import SharedKit
import Storage

/// Settings kept in memory, for domain tests (no I/O). Same contract as the SQLite store:
/// a refused change writes nothing.
final class MemorySettingsStore: SettingsStore {
    private let scopes = Locked<[String: [String: String]]>([:])

    func values(in scope: SettingsScope) async throws -> StoredSettings {
        scopes.withLock { scopes in
            StoredSettings(
                own: scopes[scope.storageKey] ?? [:],
                fallback: scope.isDevice ? [:] : scopes[SettingsScope.device.storageKey] ?? [:])
        }
    }

    func modify<T: Sendable>(_ scope: SettingsScope, _ change: @escaping @Sendable (inout StoredSettings) throws -> T) async throws -> T {
        try scopes.withLock { scopes in
            var stored = StoredSettings(
                own: scopes[scope.storageKey] ?? [:],
                fallback: scope.isDevice ? [:] : scopes[SettingsScope.device.storageKey] ?? [:])
            let result = try change(&stored)
            scopes[scope.storageKey] = stored.own
            return result
        }
    }

    /// Writes a raw value, bypassing validation (a database edited by hand).
    func put(_ key: String, _ value: String, in scope: SettingsScope) {
        scopes.withLock { $0[scope.storageKey, default: [:]][key] = value }
    }
}

/// Whoever the test says is logged in.
final class SwitchableScope: SettingsScopeSource {
    private let scope: Locked<SettingsScope>
    init(_ scope: SettingsScope = .device) { self.scope = Locked(scope) }
    func become(_ scope: SettingsScope) { self.scope.withLock { $0 = scope } }
    func currentScope() async throws -> SettingsScope { scope.withLock { $0 } }
}

extension SettingsScope {
    static let ada = SettingsScope.user(id: "user-ada", email: "ada@example.com")
    static let bob = SettingsScope.user(id: "user-bob", email: "bob@example.com")
}

/// Runs `moa settings …` through Settings' command group, capturing both streams.
struct CommandHarness {
    let manager: SettingsManager
    let confirmation: ConfirmationPrompt
    let secretInput: SecretValueInput

    /// - Parameter secretInput: what `set` reads for a secret (standard input or the prompt); nothing
    ///   by default, so no test ever reads the real standard input.
    init(manager: SettingsManager, confirmation: ConfirmationPrompt = .always(false), secretInput: SecretValueInput = .lines([])) {
        self.manager = manager
        self.confirmation = confirmation
        self.secretInput = secretInput
    }

    struct Run {
        let out: String
        let err: String
        let status: Int32
    }

    func run(_ arguments: [String], interactive: Bool = false, language: AppLanguage = .en) async throws -> Run {
        let group = try RegistryBuilder(modules: [
            ModuleOf("Fakes", [.instance(SettingsManagerKey.self, manager)]),
            SettingsFeatureModule(confirmation: confirmation, secretInput: secretInput),
        ]).validate(root: SettingsCommandsKey.self).resolve()
        let command = try SettingsCommand.parseAsRoot(arguments)
        let out = CapturingOutput()
        let err = CapturingOutput()
        let context = CommandContext(
            json: arguments.contains("--json"), out: out, err: err,
            isInteractive: interactive, language: language)
        var status = ExitStatus.ok
        do {
            _ = try await group.run(command, context: context)
        } catch let error as any UserFacingError {
            status = context.report(error)
        }
        return Run(out: out.text, err: err.text, status: status.rawValue)
    }
}

/// A manager on an in-memory store.
func makeManager(
    store: MemorySettingsStore = MemorySettingsStore(), scope: SwitchableScope = SwitchableScope(.ada),
    flags: [String: String] = [:], environment: [String: String] = [:]
) -> SettingsManager {
    SettingsManager(store: store, scopes: scope, overrides: SettingsOverrides(flags), environment: environment)
}
