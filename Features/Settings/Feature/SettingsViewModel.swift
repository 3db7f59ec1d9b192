import SettingsDomain
import SettingsInterface
import SharedKit
import ViewModelKit

/// The settings screen's view model: every `moa settings …` command (and the interactive mode's
/// settings screen) sends it an input and renders its state. The rules live in ``SettingsManager``.
@MainActor
public final class SettingsViewModel: ReportingViewModel {
    public static let unexpectedErrorSentence = "Settings failed unexpectedly"

    public enum Input: Sendable {
        /// Every setting; `flags`: command-line values of this run.
        case list(flags: SettingsOverrides)
        case get(String, flags: SettingsOverrides)
        case set(String, value: String?)
        case reset(String)
        /// How many values `resetAll` would remove (asked before confirming).
        case countStored
        case resetAll
    }

    public typealias Action = Input

    /// What happened, for the screen to show.
    public enum Outcome: Sendable, Equatable {
        case listed(SettingsReport)
        case shown(ScopedSetting)
        case changed(ScopedSetting)
        case reset(ScopedSetting, removed: Bool)
        case stored(scope: SettingsScope, count: Int)
        case resetAll(scope: SettingsScope, removed: Int)
    }

    public struct State: Sendable {
        public var outcome: Outcome?
        public var error: (any UserFacingError)?
        /// The `display.language` in effect after the action (so `set display.language ko` answers in Korean).
        public var language: AppLanguage?
    }

    public private(set) var state = State()
    private let manager: SettingsManager

    public nonisolated init(manager: SettingsManager) {
        self.manager = manager
    }

    public func transform(_ input: Input) -> [Action] { [input] }

    public func perform(_ action: Action) async throws {
        state = State()
        switch action {
        case .list(let flags):
            let report = try await manager.report(flags: flags)
            state.outcome = .listed(report)
            state.language = report.snapshot.language
            return
        case .get(let name, let flags):
            state.outcome = .shown(try await manager.entry(named: name, flags: flags))
        case .set(let name, let value):
            state.outcome = .changed(try await manager.set(name, to: value))
        case .reset(let name):
            let (setting, removed) = try await manager.reset(name)
            state.outcome = .reset(setting, removed: removed)
        case .countStored:
            let (scope, count) = try await manager.storedCount()
            state.outcome = .stored(scope: scope, count: count)
        case .resetAll:
            let (scope, removed) = try await manager.resetAll()
            state.outcome = .resetAll(scope: scope, removed: removed)
        }
        state.language = try? await manager.snapshot().language
    }

    public func show(_ error: any UserFacingError) {
        state.outcome = nil
        state.error = error
    }
}
