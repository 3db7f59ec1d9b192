import ArchiveDomain
import ArchiveInterface
import ArgumentParser
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import Registry
import SettingsInterface
import SharedKit

/// The import's progress bars on standard error: one while pages are fetched, one while rows are
/// written. Drawn in place on a terminal; in a pipe, only for large imports, a line every 25%.
public final class ImportProgressDisplay: Sendable {
    private struct Current {
        var label: String
        var reporter: ProgressReporter
    }

    private let output: any TextOutput
    private let theme: Theme
    private let isTerminal: Bool
    private let enabled: Bool
    private let current = Locked<Current?>(nil)

    /// - Parameters:
    ///   - isTerminal: whether `output` is a terminal (bars redraw in place; elsewhere only large imports log).
    ///   - enabled: `false` with `--json` (nothing decorative).
    public init(output: any TextOutput, theme: Theme, isTerminal: Bool, enabled: Bool) {
        self.output = output
        self.theme = theme
        self.isTerminal = isTerminal
        self.enabled = enabled
    }

    convenience init(context: CommandContext) {
        self.init(output: context.err, theme: context.errorTheme, isTerminal: StandardStream.error.isTerminal, enabled: !context.json)
    }

    /// Large enough to show progress in a pipe or a log.
    static let largeImport = 10_000

    public func update(_ progress: ImportProgress) {
        guard enabled else { return }
        switch progress {
        case .read: return
        case .fetched(let rows, let total): show("Fetching", done: rows, total: total)
        case .writing(let done, let total): show("Importing", done: done, total: total)
        }
    }

    public func finish() {
        current.withLock { $0?.reporter.finish() }
    }

    private func show(_ label: String, done: Int, total: Int) {
        guard isTerminal || total >= Self.largeImport else { return }
        current.withLock { current in
            if current?.label != label {
                current?.reporter.finish()
                current = Current(
                    label: label,
                    reporter: ProgressReporter(
                        total: total, output: output, theme: theme, isInteractive: isTerminal,
                        label: label, logEvery: isTerminal ? nil : 25))
            }
            current?.reporter.update(done: done)
        }
    }
}
