import Foundation
import Testing

/// `Scripts/test-affected`: which test targets a change selects, and why — on the real package
/// (`--files`) and on a fixture in a git repository of its own (`--base`/`--head`, the working
/// tree, `--since-green`).
@Suite("Scripts/test-affected")
struct TestAffectedTests {
    struct Selection {
        let selected: [String: [String]]
        let skipped: [String]
        let inert: [String: String]

        init(_ result: Scripts.Result) throws {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
            let selected = object["selected"] as? [[String: Any]] ?? []
            self.selected = Dictionary(
                uniqueKeysWithValues: selected.compactMap { entry in
                    (entry["target"] as? String).map { ($0, entry["reason"] as? [String] ?? []) }
                })
            skipped = (object["skipped"] as? [[String: Any]] ?? []).compactMap { $0["target"] as? String }
            inert = object["inert"] as? [String: String] ?? [:]
        }
    }

    static func files(_ paths: String...) throws -> (Scripts.Result, Selection) {
        let result = try Scripts.run("test-affected", ["--dry-run", "--json", "--files", paths.joined(separator: ",")])
        return (result, try Selection(result))
    }

    // MARK: The real package

    @Test("a body edit in Settings' Domain selects SettingsTests and AppTests, not CoreTests, SearchTests or ArchiveTests")
    func settingsDomainEdit() throws {
        let file = "Features/Settings/Domain/EditDistance.swift"
        let (result, selection) = try Self.files(file)
        #expect(result.status == 0, "\(result)")
        #expect(selection.selected["SettingsTests"] == ["SettingsTests", "SettingsDomain", file], "\(result)")
        #expect(selection.selected["AppTests"]?.first == "AppTests" && selection.selected["AppTests"]?.last == file, "\(result)")
        for skipped in ["CoreTests", "SearchTests", "ArchiveTests", "AuthTests", "InboxTests"] {
            #expect(selection.skipped.contains(skipped), "\(skipped): \(result)")
        }
    }

    @Test("an edit in Core/Registry selects every test target that depends on Registry, each with its path")
    func registryEdit() throws {
        let file = "Core/Registry/CommonKeys.swift"
        let (result, selection) = try Self.files(file)
        #expect(result.status == 0, "\(result)")
        let dependents = try Self.testTargetsDepending(on: "Registry")
        #expect(Set(selection.selected.keys) == dependents, "\(result)")
        #expect(dependents.count >= 10)
        for (target, reason) in selection.selected {
            #expect(reason.first == target && reason.last == file && reason.contains("Registry"), "\(target): \(reason)")
        }
    }

    @Test("README.md alone selects nothing, and says so; Package.swift selects everything")
    func documentationAndManifest() throws {
        let (readme, none) = try Self.files("README.md")
        #expect(readme.status == 0 && none.selected.isEmpty, "\(readme)")
        #expect(none.inert["README.md"] == "documentation")
        let human = try Scripts.run("test-affected", ["--dry-run", "--files", "README.md"])
        #expect(human.lines.contains("  README.md — selects nothing: documentation"), "\(human)")
        #expect(human.lines.contains { $0.hasPrefix("No test target to run (0 of ") }, "\(human)")

        let (manifest, all) = try Self.files("Package.swift")
        #expect(manifest.status == 0 && all.skipped.isEmpty && all.selected.count >= 13, "\(manifest)")
        #expect(all.selected.values.allSatisfy { $0.last == "Package.swift (the manifest: every target)" })
    }

    @Test("--files takes an absolute path inside the repository as the relative one; outside it, or a bad flag, exits 64")
    func absolutePathsAndBadArguments() throws {
        let relative = "Features/Settings/Domain/EditDistance.swift"
        let (_, expected) = try Self.files(relative)
        let (absolute, selection) = try Self.files(Scripts.repositoryRoot.appendingPathComponent(relative).path)
        #expect(absolute.status == 0, "\(absolute)")
        #expect(selection.selected == expected.selected && selection.skipped == expected.skipped, "\(absolute)")

        let outside = try Scripts.run("test-affected", ["--dry-run", "--files", "/etc/hosts"])
        #expect(outside.status == 64 && outside.stderr.contains("/etc/hosts is outside the repository"), "\(outside)")
        let flag = try Scripts.run("test-affected", ["--dry-run", "--no-such-flag"])
        #expect(flag.status == 64 && flag.stderr.contains("unrecognized arguments: --no-such-flag"), "\(flag)")
    }

    /// The test targets whose declared closure holds `module`, from `swift package describe`.
    static func testTargetsDepending(on module: String) throws -> Set<String> {
        let described = try Scripts.runTool(
            "/usr/bin/env",
            [
                "swift", "package", "--package-path", Scripts.repositoryRoot.path, "--scratch-path",
                Scripts.repositoryRoot.appendingPathComponent(".build-describe").path, "describe", "--type", "json",
            ])
        let json = String(described.stdout.drop { $0 != "{" })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let targets = object["targets"] as? [[String: Any]] ?? []
        let dependencies = Dictionary(
            uniqueKeysWithValues: targets.compactMap { t in (t["name"] as? String).map { ($0, t["target_dependencies"] as? [String] ?? []) }
            })
        func reaches(_ name: String, _ seen: inout Set<String>) -> Bool {
            guard seen.insert(name).inserted else { return false }
            return (dependencies[name] ?? []).contains { $0 == module || reaches($0, &seen) }
        }
        return Set(
            targets.filter { $0["type"] as? String == "test" }.compactMap { $0["name"] as? String }.filter { name in
                var seen = Set<String>()
                return reaches(name, &seen)
            })
    }

    // MARK: A fixture in a git repository

    struct Repository {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("moa-affected-\(UUID().uuidString)")
        let describe: URL

        init() throws {
            describe = try Fixture.clean().write(to: root)
            try Data(".describe.json\n.build-affected/\n".utf8).write(to: root.appendingPathComponent(".gitignore"))
            try git("init", "-q")
            try commit("the fixture")
        }

        func git(_ arguments: String...) throws {
            let result = try Scripts.runTool(
                "/usr/bin/env", ["git", "-C", root.path, "-c", "user.email=ci@moa.example", "-c", "user.name=CI"] + arguments)
            guard result.status == 0 else { throw ScriptError("git \(arguments.joined(separator: " ")): \(result)") }
        }

        func commit(_ message: String) throws {
            try git("add", "-A")
            try git("commit", "-q", "--allow-empty", "-m", message)
        }

        func append(_ text: String, to path: String) throws {
            let url = root.appendingPathComponent(path)
            let old = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((old + text).utf8).write(to: url)
        }

        func affected(_ arguments: [String]) throws -> (Scripts.Result, Selection) {
            let result = try Scripts.run(
                "test-affected", ["--dry-run", "--json", "--describe", describe.path, "--root", root.path] + arguments)
            return (result, try Selection(result))
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    struct ScriptError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test("the working tree: unstaged, staged and untracked files count; a commit range counts what it committed")
    func gitRanges() throws {
        let repository = try Repository()
        defer { repository.remove() }
        let (clean, nothing) = try repository.affected([])
        #expect(clean.status == 0 && nothing.selected.isEmpty, "\(clean)")

        // Unstaged: a body edit in Account's Domain.
        try repository.append("let more = 2\n", to: "Features/Account/Domain/AccountDomain.swift")
        let (_, unstaged) = try repository.affected([])
        #expect(Set(unstaged.selected.keys) == ["AccountTests", "AppTests"], "\(unstaged.selected)")
        #expect(unstaged.selected["AccountTests"] == ["AccountTests", "AccountDomain", "Features/Account/Domain/AccountDomain.swift"])

        // Staged, plus an untracked file in Core.
        try repository.git("add", "-A")
        try repository.append("let fresh = 1\n", to: "Core/Networking/Fresh.swift")
        let (_, staged) = try repository.affected([])
        #expect(staged.selected["CoreTests"] == ["CoreTests", "Networking", "Core/Networking/Fresh.swift"], "\(staged.selected)")
        #expect(staged.selected["AccountTests"] != nil)

        // Committed: only what the range holds.
        try repository.commit("two changes")
        try repository.append("// a comment\n", to: "Features/Transfer/Data/TransferData.swift")
        try repository.commit("one more")
        let (range, committed) = try repository.affected(["--base", "HEAD~1", "--head", "HEAD"])
        #expect(Set(committed.selected.keys) == ["TransferTests", "AppTests"], "\(range)")
        let (_, both) = try repository.affected(["--base", "HEAD~2", "--head", "HEAD"])
        #expect(Set(both.selected.keys) == ["AccountTests", "TransferTests", "AppTests", "CoreTests"], "\(both.selected)")

        // An import added selects ArchitectureTests too (it checks every import); a body edit did not.
        try repository.append("import Foundation\n", to: "Features/Transfer/Data/TransferData.swift")
        let (_, imports) = try repository.affected([])
        #expect(imports.selected["ArchitectureTests"]?.last?.contains("its imports changed") == true, "\(imports.selected)")

        let unknown = try Scripts.run(
            "test-affected", ["--dry-run", "--describe", repository.describe.path, "--root", repository.root.path, "--base", "nowhere"])
        #expect(unknown.status == 64, "\(unknown)")
    }

    @Test("--since-green selects what changed since each target's green run, and nothing when nothing did")
    func sinceGreen() throws {
        let repository = try Repository()
        defer { repository.remove() }
        let (first, never) = try repository.affected(["--since-green"])
        #expect(first.status == 0 && never.selected.count == 5, "\(first)")
        #expect(never.selected.values.allSatisfy { $0 == [$0[0], "no green run recorded"] }, "\(never.selected)")

        let marked = try Scripts.run(
            "test-affected",
            ["--since-green", "--mark-green", "--describe", repository.describe.path, "--root", repository.root.path])
        #expect(marked.status == 0, "\(marked)")
        let (_, unchanged) = try repository.affected(["--since-green"])
        #expect(unchanged.selected.isEmpty && unchanged.skipped.count == 5, "\(unchanged.selected)")

        // Not even committed: the content is what counts.
        try repository.append("let more = 2\n", to: "Features/Transfer/Domain/TransferDomain.swift")
        let (_, changed) = try repository.affected(["--since-green"])
        #expect(Set(changed.selected.keys) == ["TransferTests", "AppTests"], "\(changed.selected)")
        #expect(changed.selected["TransferTests"] == ["TransferTests", "TransferDomain", "Features/Transfer/Domain/TransferDomain.swift"])
    }

    @Test("a green run's marks travel as git notes: a fresh clone that fetched them selects nothing, unless its toolchain differs")
    func greenMarksAreSharedThroughGitNotes() throws {
        let first = try Repository()
        defer { first.remove() }
        let clone = first.root.deletingLastPathComponent().appendingPathComponent("moa-affected-clone-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: clone) }
        _ = try Scripts.runTool("/usr/bin/env", ["git", "clone", "-q", first.root.path, clone.path])
        let since = ["--since-green", "--dry-run", "--json", "--describe", first.describe.path, "--root", clone.path]

        let script = Scripts.repositoryRoot.appendingPathComponent("Scripts/test-affected").path
        let withoutPostgres = ["MOA_TEST_POSTGRES_URL": ""]
        let marked = try Scripts.runTool(
            script, ["--since-green", "--mark-green", "--describe", first.describe.path, "--root", first.root.path],
            environment: withoutPostgres)
        #expect(marked.status == 0 && marked.stdout.contains("green marks for 5 targets in refs/notes/moa-green"), "\(marked)")

        let before = try Scripts.runTool(script, since, environment: withoutPostgres)
        #expect(try before.status == 0 && Selection(before).selected.count == 5, "no notes fetched yet: \(before)")

        let fetched = try Scripts.runTool(
            "/usr/bin/env", ["git", "-C", clone.path, "fetch", "-q", "origin", "refs/notes/moa-green:refs/notes/moa-green"])
        #expect(fetched.status == 0, "\(fetched)")
        let after = try Scripts.runTool(script, since, environment: withoutPostgres)
        let nothing = try Selection(after)
        #expect(nothing.selected.isEmpty && nothing.skipped.count == 5, "\(after)")
        #expect(after.stdout.contains("green elsewhere on this toolchain and platform"), "\(after)")

        // A run with PostgreSQL does not take the word of one without it (its contract tests were skipped there).
        let withPostgres = try Scripts.runTool(script, since, environment: ["MOA_TEST_POSTGRES_URL": "postgres://127.0.0.1:1/moa"])
        #expect(try Selection(withPostgres).selected.count == 5, "\(withPostgres)")

        // Another toolchain (a `swift` that answers another version): the marks do not count.
        let bin = clone.appendingPathComponent(".fake-bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try Scripts.writeExecutable("#!/bin/sh\necho 'Swift version 99.0 (another toolchain)'\n", to: bin.appendingPathComponent("swift"))
        let other = try Scripts.runTool(
            script, since,
            environment: [
                "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "MOA_TEST_POSTGRES_URL": "",
            ])
        #expect(try Selection(other).selected.count == 5, "\(other)")
    }

    // MARK: Shards

    static func matrix(_ shards: Int, history: URL?) throws -> (Scripts.Result, [[String: Any]]) {
        let result = try Scripts.runTool(
            Scripts.repositoryRoot.appendingPathComponent("Scripts/test-affected").path,
            ["--files", "Package.swift", "--shards", "\(shards)", "--matrix", "--json"],
            environment: ["MOA_TEST_HISTORY": history?.path ?? "/nonexistent/moa-history.jsonl"])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (result, object?["include"] as? [[String: Any]] ?? [])
    }

    @Test("--shards 3 splits a full selection into three parts whose union is the selection, each target once, even by count")
    func shardsCoverTheSelectionOnce() throws {
        let (result, parts) = try Self.matrix(3, history: nil)
        #expect(result.status == 0, "\(result)")
        let targets = parts.flatMap { $0["targets"] as? [String] ?? [] }
        let (_, all) = try Self.files("Package.swift")
        #expect(parts.count == 3 && parts.map { $0["shard"] as? Int } == [1, 2, 3], "\(result)")
        #expect(targets.count == Set(targets).count, "a target in two shards: \(result)")
        #expect(Set(targets) == Set(all.selected.keys), "\(result)")
        let sizes = parts.map { ($0["targets"] as? [String] ?? []).count }
        #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1, "no durations recorded: even by count, \(sizes)")
        #expect(parts.allSatisfy { $0["seconds"] is NSNull }, "\(result)")

        // Each --shard run takes its part (a dry run: nothing is built or recorded).
        var union: [String] = []
        for shard in 1...3 {
            let one = try Scripts.runTool(
                Scripts.repositoryRoot.appendingPathComponent("Scripts/test-affected").path,
                ["--files", "Package.swift", "--shards", "3", "--shard", "\(shard)", "--dry-run", "--json"],
                environment: ["MOA_TEST_HISTORY": "/nonexistent/moa-history.jsonl"])
            union += try Selection(one).selected.keys
        }
        #expect(union.sorted() == targets.sorted())
    }

    @Test("with durations recorded, the shards' recorded times are within 1.5x of each other, the longest target first")
    func shardsBalanceOnRecordedDurations() throws {
        let (_, all) = try Self.files("Package.swift")
        let names = all.selected.keys.sorted()
        // One long target, a few middling ones, many short ones: what this repository's runs record.
        var walls: [String: Double] = [:]
        for (index, name) in names.enumerated() {
            walls[name] = index == 0 ? 60 : index < 5 ? Double(20 + index * 5) : Double(index % 4 + 1)
        }
        let history = FileManager.default.temporaryDirectory.appendingPathComponent("moa-history-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: history) }
        let record = try JSONSerialization.data(withJSONObject: ["run": "r", "tests": [String: Any](), "targets": walls])
        try (record + Data("\n".utf8)).write(to: history)
        let (result, parts) = try Self.matrix(3, history: history)
        let seconds = parts.compactMap { $0["seconds"] as? Double }
        #expect(seconds.count == 3, "\(result)")
        #expect((seconds.max() ?? 0) <= 1.5 * (seconds.min() ?? 0), "\(seconds)")
        #expect(abs(seconds.reduce(0, +) - walls.values.reduce(0, +)) < 0.5, "\(seconds)")
        let longest = try #require(walls.max { $0.value < $1.value }?.key)
        #expect(parts.filter { ($0["targets"] as? [String] ?? []).contains(longest) }.count == 1)
    }

    @Test("--shard without --shards, a shard out of range and --shards with swift test's arguments are refused with 64")
    func badShardArguments() throws {
        for arguments in [
            ["--shard", "1"], ["--shards", "3", "--shard", "4"], ["--shards", "0", "--matrix"],
            ["--shards", "2", "--shard", "1", "--", "--filter", "X"],
        ] {
            let result = try Scripts.run("test-affected", ["--files", "README.md"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
        }
    }
}
