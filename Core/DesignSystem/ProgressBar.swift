import SharedKit

/// A progress bar: `[██████████░░░░░░░░░░]  50%  5/10`.
///
/// The percentage is rounded down (100% only when everything is done) and right-aligned to three
/// digits so the bar does not move while it redraws. A `total` of 0 (nothing to do) shows as complete.
/// `done` is clamped to `0...total`. The filled part is ``ColorToken/accent`` when colour is on.
public struct ProgressBar: Sendable, Equatable {
    public var done: Int
    public var total: Int
    /// The number of cells between the brackets.
    public var width: Int
    /// Text before the bar, e.g. "Transfers".
    public var label: String?

    public init(done: Int, total: Int, width: Int = 20, label: String? = nil) {
        self.done = done
        self.total = total
        self.width = width
        self.label = label
    }

    /// `done` clamped to `0...total`.
    public var clampedDone: Int { min(max(done, 0), max(total, 0)) }

    /// Whole percent done, 0...100, rounded down.
    public var percent: Int { Int(Self.scaled(clampedDone, by: 100, over: total)) }

    /// The number of filled cells.
    public var filledCells: Int { Int(Self.scaled(clampedDone, by: max(width, 0), over: total)) }

    /// The bar on one line, no newline.
    public func render(theme: Theme = .plain) -> String {
        let cells = max(width, 0)
        let filled = filledCells
        let bar =
            theme.paint(String(repeating: theme.glyphs.barFilled, count: filled), .accent)
            + theme.paint(String(repeating: theme.glyphs.barEmpty, count: cells - filled), .muted)
        let percentText = TextWidth.pad("\(percent)%", toWidth: 4, alignment: .right)
        let prefix = label.map { $0 + " " } ?? ""
        return "\(prefix)[\(bar)] \(percentText)  \(clampedDone)/\(max(total, 0))"
    }

    /// `value × factor / total` rounded down, without overflow; `factor` when `total` is 0 or less.
    private static func scaled(_ value: Int, by factor: Int, over total: Int) -> Int128 {
        guard total > 0 else { return Int128(factor) }
        return Int128(value) * Int128(factor) / Int128(total)
    }
}

/// Shows a ``ProgressBar`` while work runs, without flooding pipes.
///
/// - On a terminal (`isInteractive`), every change redraws the bar in place with `\r` (padding
///   with spaces when the new line is shorter); ``finish()`` ends the line with `\n`.
/// - Elsewhere (pipe, file, CI log) nothing is written while work runs, unless `logEvery` is set,
///   in which case one line is written each time progress crosses another `logEvery` percent
///   (e.g. 25 → at 25%, 50%, 75%); ``finish()`` writes the final state as one line.
///
/// Usually written to standard error, so standard output stays clean for results. Safe to share
/// between tasks; updates after ``finish()`` are ignored.
public final class ProgressReporter: Sendable {
    private struct State {
        var bar: ProgressBar
        var lastLine = ""
        var lastLoggedStep = 0
        var isFinished = false
    }

    private let output: any TextOutput
    private let theme: Theme
    private let isInteractive: Bool
    private let logEvery: Int?
    private let state: Locked<State>

    /// - Parameters:
    ///   - total: the number of work items.
    ///   - output: where to write (usually `.standardError`).
    ///   - theme: colours and glyphs for the bar.
    ///   - isInteractive: whether `output` is a terminal (redraw in place).
    ///   - width: the number of bar cells.
    ///   - label: text before the bar.
    ///   - logEvery: on a non-terminal, a line every this many percent (1...99); `nil`: only at the end.
    public init(
        total: Int, output: any TextOutput, theme: Theme, isInteractive: Bool,
        width: Int = 20, label: String? = nil, logEvery: Int? = nil
    ) {
        self.output = output
        self.theme = theme
        self.isInteractive = isInteractive
        self.logEvery = logEvery.flatMap { (1...99).contains($0) ? $0 : nil }
        self.state = Locked(State(bar: ProgressBar(done: 0, total: total, width: width, label: label)))
    }

    /// The progress so far.
    public var current: ProgressBar { state.withLock { $0.bar } }

    /// Records that `done` items are done, and shows it.
    public func update(done: Int) {
        state.withLock { state in
            guard !state.isFinished else { return }
            state.bar.done = done
            show(&state)
        }
    }

    /// Records `count` more items done, and shows it.
    public func advance(by count: Int = 1) {
        state.withLock { state in
            guard !state.isFinished else { return }
            state.bar.done = state.bar.clampedDone + count
            show(&state)
        }
    }

    /// Shows the final state and ends the line. Call it once, also when the work stopped early.
    public func finish() {
        state.withLock { state in
            guard !state.isFinished else { return }
            state.isFinished = true
            let line = state.bar.render(theme: theme)
            if isInteractive {
                if line != state.lastLine { output.write(redraw(line, after: state.lastLine)) }
                output.write("\n")
            } else if line != state.lastLine {
                output.write(line + "\n")
            }
            state.lastLine = line
        }
    }

    private func show(_ state: inout State) {
        let line = state.bar.render(theme: theme)
        if isInteractive {
            guard line != state.lastLine else { return }
            output.write(redraw(line, after: state.lastLine))
            state.lastLine = line
        } else if let logEvery {
            let step = state.bar.percent / logEvery
            guard step > state.lastLoggedStep, state.bar.percent < 100 else { return }
            state.lastLoggedStep = step
            output.write(line + "\n")
            state.lastLine = line
        }
    }

    private func redraw(_ line: String, after previous: String) -> String {
        "\r" + line + TextWidth.spaces(previous.displayWidth - line.displayWidth)
    }
}
