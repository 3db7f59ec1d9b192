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
    /// `less` keeps colours too. Returns `false` when there is no such pager (its first word is not
    /// an executable on `PATH`): the caller then prints the text itself. A pager quit early (`q`) is fine.
    ///
    /// The pager is started with `posix_spawn` itself, not Foundation's `Process`: `Process` puts the
    /// child in a process group of its own, where a pager that sets up the terminal (`less`) is stopped
    /// by SIGTTOU and moa would wait forever; and it inherits the blocked signals of the thread that
    /// starts it. Here it stays in moa's group, with no signal blocked and the default SIGINT, SIGQUIT
    /// and SIGPIPE; moa ignores Ctrl-C while the pager runs (as git does) and SIGPIPE while it writes.
    public static func run(_ command: String, text: String, environment: [String: String]) -> Bool {
        guard executableExists(command, environment: environment) else { return false }
        var environment = environment
        if environment["LESS"] == nil { environment["LESS"] = "FRX" }
        if environment["LV"] == nil { environment["LV"] = "-c" }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return false }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])

        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
            var attributes: posix_spawnattr_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_adddup2(&actions, readEnd, STDIN_FILENO)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTOU, SIGTTIN] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let words: [String] = ["/bin/sh", "-c", command]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let variables: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in arguments { free(pointer) }
            for pointer in variables { free(pointer) }
        }
        // Ctrl-C and Ctrl-\ are the pager's while it runs; a pager that quits early makes the write fail
        // with EPIPE instead of killing moa.
        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        let previousPipe = signal(SIGPIPE, SIG_IGN)
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGQUIT, previousQuit)
            signal(SIGPIPE, previousPipe)
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, variables)
        close(readEnd)
        guard spawned == 0 else {
            close(writeEnd)
            return false
        }
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = pagerWrite(writeEnd, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return // the pager quit
                }
            }
        }
        close(writeEnd)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return true
    }

    /// Whether the pager command's first word names an executable: a path, or a name on `PATH`.
    static func executableExists(_ command: String, environment: [String: String]) -> Bool {
        guard let first = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) else { return false }
        if first.contains("/") { return access(first, X_OK) == 0 }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").contains { access("\($0)/\(first)", X_OK) == 0 }
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
