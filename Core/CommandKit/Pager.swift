import DesignSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Long listings page like every other terminal tool: through `MOA_PAGER`, else `PAGER`, else
/// `less -FRX` (quits at once when the text fits, keeps colours, leaves the text on the screen) —
/// only when standard output is a terminal, never with `--json` or `--no-pager`, and never when
/// the pager variable is set empty or to `cat`.
public enum Pager {
    /// The default pager command.
    public static let defaultCommand = "less -FRX"

    /// The pager command `environment` asks for: `MOA_PAGER` wins over `PAGER`; `nil` for none.
    public static func command(environment: [String: String]) -> String? {
        let chosen = environment["MOA_PAGER"] ?? environment["PAGER"] ?? defaultCommand
        let trimmed = chosen.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed == "cat" ? nil : trimmed
    }

    /// Runs `command` through `/bin/sh -c` with `text` on its standard input and the terminal as its
    /// output, and waits for it. `LESS=FRX` and `LV=-c` are set when unset (as git does), so a bare
    /// `less` keeps colours too. Returns `false` when the pager could not be started (the caller
    /// then prints the text itself); a pager quit early (`q`) is fine.
    public static func run(_ command: String, text: String, environment: [String: String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var environment = environment
        if environment["LESS"] == nil { environment["LESS"] = "FRX" }
        if environment["LV"] == nil { environment["LV"] = "-c" }
        process.environment = environment
        let input = Pipe()
        process.standardInput = input // its output and errors: moa's own terminal, inherited
        // A pager that quits before reading everything closes the pipe: the write fails with EPIPE
        // instead of killing moa with SIGPIPE.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        do {
            try process.run()
        } catch {
            return false
        }
        let fd = input.fileHandleForWriting.fileDescriptor
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = pagerWrite(fd, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return // the pager quit
                }
            }
        }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        // `sh -c` exits 127 when the pager command does not exist: say nothing was shown.
        return !(process.terminationReason == .exit && process.terminationStatus == 127)
    }
}

extension CommandContext {
    /// Prints a long listing: through the pager when ``paging`` is on, standard output is a terminal
    /// and a pager is configured (``Pager``); otherwise as ``print(_:)`` does. The text goes through
    /// the same terminal-safe filter either way.
    public func printPaged(_ text: String) {
        let text = text.hasSuffix("\n") ? text : text + "\n"
        let raw = (out as? TerminalSafeOutput)?.base ?? out
        guard paging, !json, let stream = raw as? StreamOutput, stream.stream.isTerminal,
            let command = Pager.command(environment: environment)
        else {
            out.write(text)
            return
        }
        let safe = TerminalSafe.neutralize(text, keepingStyle: theme.isColorEnabled, keepingLeadingReturn: true)
        if !Pager.run(command, text: safe, environment: environment) { out.write(text) }
    }
}

private func pagerWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(descriptor, pointer, count)
    #elseif canImport(Musl)
        Musl.write(descriptor, pointer, count)
    #else
        Darwin.write(descriptor, pointer, count)
    #endif
}
