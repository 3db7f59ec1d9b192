import Foundation
import SharedKit
import Testing

/// Exit statuses by type, not by command ("Close the trust boundary", item 4): every leaf command of
/// the built `moa`, given a bad value for each of its arguments and options, exits with the status
/// documented for that kind of error — 64, 65, 66 or 69, never 70 — and says so in one sentence.
///
/// The commands and their arguments come from the binary itself (`moa --experimental-dump-help`), and
/// so do the settings (`moa settings list --json`): a new command, argument, option or setting without
/// a bad value in ``cases`` (or a reason in ``anyValue``) fails the test, naming it.
///
/// Which status is documented (docs/design.md, "Errors and exit statuses"):
/// - 64, usage: how the command is run — an unknown option, a value the parser cannot read as its
///   option's kind (not a number, not one of the choices), a number outside an option's range
///   (`--limit`, `--page`, `--per-page`, `--rating`, `--from`/`--to` rows), a name outside a fixed list
///   of the CLI (a setting key, a doctor key), an empty `--home` or `--output`, options that do not go
///   together;
/// - 65, bad data: a malformed value of what the command works on — an amount, a currency, an account
///   number (length, check digit), a name, a memo, an alias, an e-mail address, a code, a date, a key,
///   an id, a login, a setting's value, a file's content;
/// - 66, no input: an input file that does not exist or cannot be read;
/// - 69, unavailable: a well-formed reference to something that does not exist (an account, a
///   transfer, a favourite, a notice, a ticket, an event).
@Suite("every leaf command refuses a bad value with its documented status")
struct BadInputEndToEndTests {
    // MARK: - The table

    /// One bad value: the command, the argument or option it is bad for, the whole command line after
    /// the command's path (placeholders in braces: see ``Fixture/resolve(_:)``), standard input, and
    /// the documented status.
    struct Case: Sendable, CustomStringConvertible {
        let command: [String]
        let argument: String
        let arguments: [String]
        let stdin: String
        let status: Int32

        init(_ command: String, _ argument: String, _ arguments: [String], stdin: String = "", _ status: Int32) {
            self.command = command.split(separator: " ").map(String.init)
            self.argument = argument
            self.arguments = arguments
            self.stdin = stdin
            self.status = status
        }

        var description: String { "moa \((command + arguments).map { $0.debugDescription }.joined(separator: " "))" }

        /// `account history --limit`; a global option alone (`--home`).
        var key: String { BadInputEndToEndTests.key(command.joined(separator: " "), argument) }
    }

    static func key(_ command: String, _ argument: String) -> String { command.isEmpty ? argument : "\(command) \(argument)" }

    /// A command line to run, and what standard input holds.
    struct Run: Sendable {
        let arguments: [String]
        let stdin: String
    }

    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let unavailable: Int32 = 69
    static let configuration: Int32 = 78
    static let noPermission: Int32 = 77

    static let password = "a long passphrase nobody guesses"
    /// Red text, a bell, the 8-bit CSI and a right-to-left override.
    static let hostile = "b\u{1B}[31mred\u{07}\u{9B}2J\u{202E}evil"
    static func long(_ count: Int) -> String { String(repeating: "x", count: count) }

    /// Bad amounts: an exponent, a fraction KRW does not have, a currency sign, not a number, nothing,
    /// negative, zero, above the per-operation maximum.
    static let badAmounts = ["1e6", "100.5", "5,000원", "NaN", "", "-5", "0", "9000000000000000000"]

    static let cases: [Case] =
        authCases + settingsCases + accountCases + transferCases + searchCases + archiveCases + inboxAndAppCases

    static let authCases: [Case] =
        [
            Case("auth signup", "--email", ["--email", "not-an-address", "--password-stdin"], stdin: password, dataError),
            Case("auth signup", "--email", ["--email", "", "--password-stdin"], stdin: password, dataError),
            Case("auth verify", "--email", ["--email", "not-an-address", "--code", "123456"], dataError),
            Case("auth verify", "--code", ["--email", "nobody@example.com", "--code", "abc"], dataError),
            Case("auth verify", "--code", ["--email", "nobody@example.com", "--code", "1234567"], dataError),
            // No code waits for the address: the answer a wrong code gets (nothing tells which it was).
            Case(
                "auth verify", "--code", ["--email", "someone@example.com", "--code", "123456", "--password-stdin"], stdin: password,
                noPermission),
            Case("auth login", "--email", ["--email", "not-an-address", "--password-stdin"], stdin: password, dataError),
        ]
        + ["auth signup", "auth login"].flatMap { command in
            [
                Case(
                    command, "--server", ["--server", "ftp://bank.example", "--email", "a@b.example", "--password-stdin"], stdin: password,
                    usage),
                Case(command, "--server", ["--server", "", "--email", "a@b.example", "--password-stdin"], stdin: password, usage),
                Case(command, "--server", ["--server", hostile, "--email", "a@b.example", "--password-stdin"], stdin: password, usage),
                // Plain HTTP to another machine: refused before any request (issue 15).
                Case(
                    command, "--server", ["--server", "http://bank.example", "--email", "a@b.example", "--password-stdin"], stdin: password,
                    configuration),
                // A CA file that cannot be used, or one without a server: refused before any request (issue 24).
                Case(
                    command, "--ca-file",
                    ["--server", "https://bank.example", "--ca-file", "/nonexistent/ca.pem", "--email", "a@b.example", "--password-stdin"],
                    stdin: password, configuration),
                Case(
                    command, "--ca-file",
                    ["--server", "https://bank.example", "--ca-file", hostile, "--email", "a@b.example", "--password-stdin"],
                    stdin: password, configuration),
                Case(
                    command, "--ca-file", ["--ca-file", "/etc/hostname", "--email", "a@b.example", "--password-stdin"], stdin: password,
                    configuration),
            ]
        } + [
            Case("auth password reset", "--email", ["--email", "not-an-address"], dataError),
            Case(
                "auth password reset", "--code", ["--email", "ada@example.com", "--code", "abc", "--password-stdin"],
                stdin: "a brand new passphrase for moa", dataError),
            Case("auth delete", "--confirm", ["--confirm", "not-an-address"], dataError),
        ]

    static let settingsCases: [Case] =
        [
            Case("settings get", "<key>", ["no.such.key"], usage),
            Case("settings get", "<key>", [""], usage),
            Case("settings set", "<key>", ["no.such.key", "1"], usage),
            Case("settings reset", "<key>", ["no.such.key"], usage),
        ] + settingValues.map { key, value in Case("settings set", "<value>", [key, value], dataError) }

    /// A bad value for each setting (`moa settings list --json` must list no other).
    static let settingValues: [(String, String)] = [
        ("display.language", "xx"), ("display.color", "purple"), ("display.page-size", "0"),
        ("account.default", "abc"), ("transfer.per-transfer-limit", "1e6"), ("transfer.daily-limit", "NaN"),
        ("notifications.large-transfer", "5,000원"), ("search.api-base-url", "ftp://example.com"),
        ("search.api-token", "a b"), ("archive.api-key", "a b"), ("search.oauth-base-url", "https://user:pw@github.com"),
        ("search.oauth-client-id", "Iv1.\u{1B}[2J"),
    ]

    static let accountCases: [Case] =
        [
            Case("account open", "--type", ["--type", "bogus", "--name", "X"], usage),
            Case("account open", "--name", ["--type", "checking", "--name", ""], dataError),
            Case("account open", "--name", ["--type", "checking", "--name", hostile], dataError),
            Case("account open", "--name", ["--type", "checking", "--name", long(41)], dataError),
            Case("account open", "--currency", ["--type", "checking", "--name", "X", "--currency", "XYZ"], dataError),
            Case("account open", "--currency", ["--type", "checking", "--name", "X", "--currency", ""], dataError),
            Case("account rename", "<account>", ["110-0000-0000-7", "New"], unavailable),
            Case("account rename", "<name>", ["{A}", ""], dataError),
            Case("account rename", "<name>", ["{A}", hostile], dataError),
            Case("account history", "--limit", ["{A}", "--limit", "abc"], usage),
            Case("account history", "--limit", ["{A}", "--limit", "-1"], usage),
            Case("account history", "--limit", ["{A}", "--limit", "0"], usage),
            Case("account history", "--limit", ["{A}", "--limit", "201"], usage),
            Case("account history", "--limit", ["{A}", "--limit", "99999999999999999999"], usage),
            Case("account history", "--after", ["{A}", "--after", "abc"], dataError),
        ]
        + ["account show", "account history", "account close"].flatMap { command in
            [
                Case(command, "<account>", ["{A!}"], dataError),
                Case(command, "<account>", ["110-1234-5678-90"], dataError),
                Case(command, "<account>", ["110-0000-0000-7"], unavailable),
            ]
        }
        + ["account deposit", "account withdraw"].flatMap { command in
            [
                Case(command, "<account>", ["{A!}", "1,000"], dataError),
                Case(command, "<account>", ["110-0000-0000-7", "1,000"], unavailable),
                Case(command, "--memo", ["{A}", "1,000", "--memo", long(141)], dataError),
                Case(command, "--memo", ["{A}", "1,000", "--memo", hostile], dataError),
            ] + badAmounts.map { Case(command, "<amount>", ["{A}", $0], dataError) }
        }

    static let transferCases: [Case] =
        [
            Case("transfer send", "--from", ["--from", "{A!}", "--to", "{B}", "1,000"], dataError),
            Case("transfer send", "--from", ["--from", "110-0000-0000-7", "--to", "{B}", "1,000"], unavailable),
            Case("transfer send", "--to", ["--from", "{A}", "--to", "{B!}", "1,000"], dataError),
            Case("transfer send", "--to", ["--from", "{A}", "--to", "110-0000-0000-7", "1,000"], unavailable),
            Case("transfer send", "--to", ["--from", "{A}", "--to", "@nobody", "1,000"], unavailable),
            Case("transfer send", "--to", ["--from", "{A}", "--to", "@", "1,000"], dataError),
            Case("transfer send", "--memo", ["--from", "{A}", "--to", "{B}", "1,000", "--memo", long(141)], dataError),
            Case("transfer send", "--idempotency-key", ["--from", "{A}", "--to", "{B}", "1,000", "--idempotency-key", ""], dataError),
            Case(
                "transfer send", "--idempotency-key", ["--from", "{A}", "--to", "{B}", "1,000", "--idempotency-key", long(5000)],
                dataError),
            Case("transfer batch", "<file>", ["{HOME}/missing.csv"], noInput),
            Case("transfer batch", "<file>", ["{HOME}"], noInput),
            Case("transfer batch", "<file>", ["/dev/null"], noInput),
            Case("transfer batch", "<file>", ["{HOME}/bad.csv"], dataError),
            Case("transfer list", "--limit", ["--limit", "abc"], usage),
            Case("transfer list", "--limit", ["--limit", "0"], usage),
            Case("transfer list", "--limit", ["--limit", "201"], usage),
            Case("transfer list", "--after", ["--after", "abc"], dataError),
            Case("transfer show", "<transfer-id>", ["abc"], unavailable),
            Case("transfer show", "<transfer-id>", ["00000000-0000-0000-0000-000000000000"], unavailable),
            Case("transfer recipients add", "<number>", ["abc", "--alias", "mum"], dataError),
            Case("transfer recipients add", "<number>", ["{B!}", "--alias", "mum"], dataError),
            Case("transfer recipients add", "--alias", ["{B}", "--alias", ""], dataError),
            Case("transfer recipients add", "--alias", ["{B}", "--alias", "110"], dataError),
            Case("transfer recipients add", "--alias", ["{B}", "--alias", hostile], dataError),
            Case("transfer recipients remove", "<alias>", ["nobody"], unavailable),
            Case("transfer recipients remove", "<alias>", [""], dataError),
        ] + badAmounts.map { Case("transfer send", "<amount>", ["--from", "{A}", "--to", "{B}", $0], dataError) }

    static let searchCases: [Case] = [
        Case("search users", "<query>", [""], usage),
        Case("search users", "--page", ["ada", "--page", "abc"], usage),
        Case("search users", "--page", ["ada", "--page", "0"], usage),
        Case("search users", "--page", ["ada", "--page", "99999999999"], usage),
        Case("search users", "--per-page", ["ada", "--per-page", "0"], usage),
        Case("search users", "--per-page", ["ada", "--per-page", "101"], usage),
        Case("search users", "--sort", ["ada", "--sort", "bogus"], usage),
        Case("search user", "<login>", ["a b"], dataError),
        Case("search user", "<login>", [long(300)], dataError),
        Case("search events", "--from", ["--from", "abc"], dataError),
        Case("search events", "--to", ["--to", "2026-13-45"], dataError),
        Case("search events", "--on", ["--on", "2026-02-30"], dataError),
        Case("search events", "--page", ["--page", "0"], usage),
        Case("search events", "--page", ["--page", "abc"], usage),
    ]

    static let archiveCases: [Case] =
        [
            Case("archive import", "<file>", ["{HOME}/missing.json"], noInput),
            Case("archive import", "<file>", ["{HOME}"], noInput),
            Case("archive import", "<file>", ["{HOME}/bad.json"], dataError),
            Case("archive import", "--api-key", ["--api-key", ""], usage),
            Case("archive import", "--from", ["--api-key", "k", "--from", "abc"], usage),
            Case("archive import", "--from", ["--api-key", "k", "--from", "0"], usage),
            Case("archive import", "--to", ["--api-key", "k", "--from", "5", "--to", "1"], usage),
            Case("archive import", "--to", ["--api-key", "k", "--to", "abc"], usage),
            Case("archive add", "<event-id>", ["nosuchid"], unavailable),
            Case("archive add", "--title", ["--title", "", "--category", "연극", "--region", "종로구", "--attended", "2026-01-01"], dataError),
            Case(
                "archive add", "--category", ["--title", "T", "--category", "", "--region", "종로구", "--attended", "2026-01-01"], dataError),
            Case("archive add", "--region", ["--title", "T", "--category", "연극", "--region", "", "--attended", "2026-01-01"], dataError),
            Case("archive add", "--attended", ["{EVENT}", "--attended", "2026-02-30"], dataError),
            Case("archive add", "--rating", ["{EVENT}", "--rating", "6"], usage),
            Case("archive add", "--rating", ["{EVENT}", "--rating", "abc"], usage),
            Case("archive add", "--memo", ["{EVENT}", "--memo", long(501)], dataError),
            Case("archive remove", "<ticket>", ["nosuch"], unavailable),
            Case("archive recommend", "--limit", ["--limit", "0"], usage),
            Case("archive recommend", "--limit", ["--limit", "101"], usage),
            Case("archive recommend", "--limit", ["--limit", "abc"], usage),
            Case("archive preferences set", "--districts", ["--districts", "nowhere", "--categories", "연극"], dataError),
            Case("archive preferences set", "--categories", ["--districts", "종로구", "--categories", "nothing"], dataError),
            Case("archive export", "--format", ["--format", "xml"], usage),
            Case("archive export", "--output", ["--format", "json", "--output", ""], usage),
        ]
        + [
            Case("archive events", "--from", ["--from", "abc"], dataError),
            Case("archive events", "--to", ["--to", "2026-13-45"], dataError),
            Case("archive events", "--on", ["--on", "2026-02-30"], dataError),
            Case("archive events", "--page", ["--page", "0"], usage),
            Case("archive events", "--per-page", ["--per-page", "0"], usage),
            Case("archive events", "--per-page", ["--per-page", "201"], usage),
        ]

    static let inboxAndAppCases: [Case] = [
        Case("inbox list", "--limit", ["--limit", "0"], usage),
        Case("inbox list", "--limit", ["--limit", "abc"], usage),
        Case("inbox list", "--before", ["--before", "abc"], dataError),
        Case("inbox read", "<id>", ["abc"], dataError),
        Case("inbox read", "<id>", ["0"], dataError),
        Case("inbox read", "<id>", ["99999"], unavailable),
        Case("doctor", "--without", ["--without", "NoSuchKey"], usage),
        // The global options are the root's: `--home` for any command.
        Case("", "--home", ["--home", "", "account", "list"], usage),
        Case("", "--home", ["account", "list", "--home", ""], usage),
    ]

    /// Options that take any text: a catalogue filter that matches nothing is an empty result, not an
    /// error. They get a hostile value and must answer 0, with nothing raw on the terminal.
    static let anyValue: [String: String] = Dictionary(
        uniqueKeysWithValues: ["search events", "archive events"].flatMap { command in
            ["--text", "--region", "--category", "--audience"].map {
                ("\(command) \($0)", "a catalogue filter: matching nothing is no error")
            }
        })

    /// Commands with no value to get wrong: ArgumentParser's own `help`.
    static let exempt: Set<String> = ["help"]

    // MARK: - The command tree, from the binary

    struct Dump: Decodable {
        struct Name: Decodable {
            let kind: String
            let name: String
        }
        struct Argument: Decodable {
            let kind: String
            let preferredName: Name?
            let valueName: String?

            /// `--limit`, `-h`, or `<account>` for a positional one.
            var name: String {
                guard let preferredName else { return "<\(valueName ?? "?")>" }
                return (preferredName.kind == "long" ? "--" : "-") + preferredName.name
            }
        }
        struct Command: Decodable {
            let commandName: String
            let arguments: [Argument]?
            let subcommands: [Command]?
        }
        let command: Command
    }

    /// Each command path (the root is ""), whether it is a leaf, and its arguments that take a value
    /// (the global options, which every command repeats, only at the root).
    static func tree(_ moa: MoaProcess) throws -> [(path: String, leaf: Bool, arguments: [String])] {
        let dump = try moa.run(["--experimental-dump-help"])
        #expect(dump.status == 0, "\(dump.err)")
        let root = try JSONDecoder().decode(Dump.self, from: Data(dump.out.utf8)).command
        let global = Set((root.arguments ?? []).map(\.name))
        var commands: [(String, Bool, [String])] = []
        func walk(_ command: Dump.Command, _ path: [String]) {
            let valued = (command.arguments ?? []).filter { $0.kind != "flag" }.map(\.name)
            commands.append(
                (
                    path.joined(separator: " "), command.subcommands?.isEmpty ?? true,
                    path.isEmpty ? valued : valued.filter { !global.contains($0) }
                ))
            for sub in command.subcommands ?? [] { walk(sub, path + [sub.commandName]) }
        }
        walk(root, [])
        return commands
    }

    // MARK: - The run

    /// One home for every case: a verified, logged-in user with two KRW accounts (money in the first),
    /// the sample catalogue, and files to read.
    struct Fixture: Sendable {
        let moa: MoaProcess
        let a: String
        let b: String
        let event: String

        init() throws {
            moa = try MoaProcess()
            try moa.loggedIn()
            a = try moa.openAccount(name: "Main")
            b = try moa.openAccount("savings", name: "Savings")
            #expect(try moa.run(["account", "deposit", a, "1,000,000"]).status == 0)
            #expect(try moa.run(["archive", "import", "--sample"]).status == 0)
            let events = try moa.run(["archive", "events", "--per-page", "1", "--json"])
            let object = try JSONSerialization.jsonObject(with: Data(events.out.utf8)) as? [String: Any]
            event = ((object?["events"] as? [[String: Any]])?.first?["id"] as? String) ?? ""
            try "not a catalogue".write(to: moa.home.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
            try "this is not,a batch\n1,2\n".write(to: moa.home.appendingPathComponent("bad.csv"), atomically: true, encoding: .utf8)
            #expect(!a.isEmpty && !b.isEmpty && !event.isEmpty)
        }

        /// `{A}`, `{B}`: the two accounts; `{A!}`, `{B!}`: the same with a wrong check digit; `{EVENT}`: a
        /// catalogue event; `{HOME}`: the home folder.
        func resolve(_ argument: String) -> String {
            argument.replacingOccurrences(of: "{A!}", with: Self.mistyped(a)).replacingOccurrences(of: "{B!}", with: Self.mistyped(b))
                .replacingOccurrences(of: "{A}", with: a).replacingOccurrences(of: "{B}", with: b)
                .replacingOccurrences(of: "{EVENT}", with: event).replacingOccurrences(of: "{HOME}", with: moa.home.path)
        }

        /// `number` with its last digit (the check digit) changed.
        static func mistyped(_ number: String) -> String {
            guard let last = number.last?.wholeNumberValue else { return number }
            return String(number.dropLast()) + String((last + 1) % 10)
        }
    }

    /// Runs every command line at once, a few at a time; results in the same order.
    static func runAll(_ moa: MoaProcess, _ runs: [Run]) -> [MoaProcess.Result?] {
        let results = Locked<[MoaProcess.Result?]>(Array(repeating: nil, count: runs.count))
        DispatchQueue.concurrentPerform(iterations: runs.count) { index in
            let result = try? moa.run(runs[index].arguments, stdin: runs[index].stdin)
            results.withLock { $0[index] = result }
        }
        return results.withLock { $0 }
    }

    /// What standard error must be: one `error:` line holding one sentence, at most one `hint:` line
    /// after it (warnings before it are allowed). Returns what is wrong, if anything.
    static func problem(report err: String) -> String? {
        let lines = err.split(separator: "\n", omittingEmptySubsequences: true).map(String.init).filter { !$0.hasPrefix("warning: ") }
        guard let first = lines.first, first.hasPrefix("error: ") else { return "no `error: ` line" }
        guard lines.count == 1 || (lines.count == 2 && lines[1].hasPrefix("hint: ")) else { return "more than an error and a hint" }
        return problem(sentence: String(first.dropFirst("error: ".count)))
    }

    static func problem(sentence: String) -> String? {
        guard !sentence.isEmpty, !sentence.contains("\n") else { return "not one line" }
        guard sentence.hasSuffix(".") || sentence.hasSuffix("?") else { return "does not end with a full stop" }
        guard !sentence.hasSuffix("..") && !sentence.hasSuffix("?.") && !sentence.contains(".. ") else { return "a doubled full stop" }
        return nil
    }

    /// ESC, BEL, the 8-bit CSI or a bidi override, raw.
    static func hostileBytes(_ text: String) -> Bool {
        text.unicodeScalars.contains { ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}"].contains($0) }
    }

    @Test("each bad value exits 64, 65, 66, 69 or 78 as documented, in one sentence, as text and as JSON")
    func everyArgumentOfEveryLeafCommand() throws {
        let fixture = try Fixture()
        defer { fixture.moa.remove() }
        let tree = try Self.tree(fixture.moa)

        // Coverage: every argument of every command has a case (a bad value, or a reason it has none)…
        let covered = Set(Self.cases.map(\.key)).union(Self.anyValue.keys)
        let known = tree.filter { !Self.exempt.contains($0.path) }.flatMap { command in command.arguments.map { Self.key(command.path, $0) }
        }
        let missing = known.filter { !covered.contains($0) }
        #expect(missing.isEmpty, "no bad value for: \(missing.joined(separator: ", "))")
        // … and no case names a command or an argument the binary does not have.
        let stale = covered.subtracting(known)
        #expect(stale.isEmpty, "cases for what moa does not have: \(stale.sorted())")
        // Every setting has a bad value.
        let settings = try fixture.moa.run(["settings", "list", "--json"])
        let keys = ((try JSONSerialization.jsonObject(with: Data(settings.out.utf8)) as? [[String: Any]]) ?? []).compactMap {
            $0["key"] as? String
        }
        #expect(
            !keys.isEmpty && Set(keys) == Set(Self.settingValues.map(\.0)),
            "settings without a bad value: \(Set(keys).subtracting(Self.settingValues.map(\.0)))")

        // An unknown option, for every command: a usage error in one sentence.
        let unknownOption = tree.filter { !$0.path.isEmpty && !Self.exempt.contains($0.path) }.map {
            Case($0.path, "--no-such-option", ["--no-such-option"], Self.usage)
        }
        let all = Self.cases + unknownOption
        let runs = all.flatMap { testCase in
            let arguments = testCase.command + testCase.arguments.map(fixture.resolve)
            return [Run(arguments: arguments, stdin: testCase.stdin), Run(arguments: arguments + ["--json"], stdin: testCase.stdin)]
        }
        let results = Self.runAll(fixture.moa, runs)
        for (index, testCase) in all.enumerated() {
            guard let text = results[2 * index], let json = results[2 * index + 1] else {
                Issue.record("\(testCase) did not run")
                continue
            }
            #expect(text.status == testCase.status, "\(testCase): exit \(text.status), not \(testCase.status): \(text.err)")
            #expect(text.status != 70, "\(testCase) is an internal error: \(text.err)")
            if let problem = Self.problem(report: text.err) { Issue.record("\(testCase): \(problem): \(text.err.debugDescription)") }
            #expect(text.out.isEmpty, "\(testCase) printed on standard output: \(text.out)")
            // A negative number is the option's value, refused for its range — not taken for an option.
            if testCase.arguments.contains(where: { $0.hasPrefix("-") && $0.dropFirst().first?.isNumber == true }) {
                #expect(!text.err.contains("Missing value"), "\(testCase): \(text.err)")
            }
            #expect(!Self.hostileBytes(text.out + text.err), "\(testCase) printed raw control characters: \(text.err.debugDescription)")
            // With --json: the same status, and the error as JSON on standard error.
            #expect(json.status == testCase.status, "\(testCase) --json: exit \(json.status): \(json.err)")
            #expect(json.out.isEmpty, "\(testCase) --json printed on standard output: \(json.out)")
            let body = json.err.firstIndex(of: "{").map { String(json.err[$0...]) } ?? ""
            let error = (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["error"] as? [String: Any]
            #expect(error?["exit_status"] as? Int == Int(testCase.status), "\(testCase) --json: \(json.err)")
            if let problem = Self.problem(sentence: error?["message"] as? String ?? "") {
                Issue.record("\(testCase) --json: \(problem): \(json.err.debugDescription)")
            }
        }

        // The options that take any text: the hostile value is a filter like any other.
        let filters = Self.anyValue.keys.sorted().map { key in
            Run(arguments: key.split(separator: " ").map(String.init) + [Self.hostile], stdin: "")
        }
        for (run, result) in zip(filters, Self.runAll(fixture.moa, filters)) {
            #expect(result?.status == 0, "\(run.arguments): \(result?.err ?? "did not run")")
            #expect(!Self.hostileBytes((result?.out ?? "") + (result?.err ?? "")), "\(run.arguments) printed raw control characters")
        }
        #expect(try fixture.moa.run(["doctor"]).status == 0, "the bad values left the data sound")
    }
}
