// BenchArchive: the Archive catalogue at scale, measured in one run (Scripts/bench-archive builds it
// in release mode and runs it). Not a test: it prints what it measured and asserts nothing.
//
// 1. generates N events (default 100,000) in the culturalEventInfo JSON format, deterministically;
// 2. imports them through the real path (FileCatalogueSource → CatalogueImporter → SQLite, one
//    transaction) into a database file, and prints rows/s; then imports them again (all unchanged);
// 3. runs filtered searches through the real `EventCatalogue` on that file, and the same SQL (count
//    + page, from `SearchSQL`) through the `sqlite3` command-line shell on the same file, and prints
//    the median time per search of each and their ratio (target ≤ 3×).
//
// Timing the shell: one `sqlite3` process runs the statements K times (output to /dev/null); a second
// process runs `SELECT 1;` K times; (first − second) / K is the time per search without the start-up
// of the process. Each side is sampled R times and the median taken.
import ArchiveData
import ArchiveDomain
import ArchiveInterface
import Foundation
import SharedKit
import Storage
import TestSupport

struct Options {
    var events = 100_000
    var samples = 9
    var seed: UInt64 = 42
    var keep = false
    var sqlite3 = "/usr/bin/sqlite3"

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--events": events = try Self.int(rest.popFirst(), argument)
            case "--samples": samples = try Self.int(rest.popFirst(), argument)
            case "--seed": seed = UInt64(try Self.int(rest.popFirst(), argument))
            case "--sqlite3": sqlite3 = rest.popFirst() ?? sqlite3
            case "--keep": keep = true
            case "-h", "--help":
                print("usage: BenchArchive [--events N] [--samples R] [--seed S] [--sqlite3 PATH] [--keep]")
                exit(0)
            default: throw BenchError("unknown argument \(argument)")
            }
        }
    }

    static func int(_ text: String?, _ name: String) throws -> Int {
        guard let text, let value = Int(text), value > 0 else { throw BenchError("\(name) needs a positive number") }
        return value
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum Catalogue {
    static let categories = [
        "교육/체험", "국악", "기타", "독주/독창회", "무용", "뮤지컬/오페라", "연극", "영화", "전시/미술", "축제-기타",
        "축제-문화/예술", "축제-시민화합", "축제-자연/경관", "축제-전통/역사", "콘서트", "클래식",
    ]
    static let audiences = ["누구나", "8세 이상", "초등학생 이상", "14세 이상", "19세 이상", "7세~12세 어린이 및 보호자", "어르신", "가족"]
    static let words = ["서울", "한강", "남산", "봄", "여름", "가을", "겨울", "빛", "소리", "거리", "시민", "청춘", "전통", "미래", "정원", "야간"]
    static let venues = ["문화회관", "아트센터", "미술관", "공원", "광장", "도서관", "극장", "구민회관"]

    /// `count` rows of culturalEventInfo JSON (about 450 bytes a row).
    static func json(count: Int, seed: UInt64) -> Data {
        var random = SeededGenerator(seed: seed)
        let origin = Day(year: 2024, month: 1, day: 1) ?? Day(Date(timeIntervalSince1970: 1_704_067_200), in: .gmt)
        var text =
            "{\"culturalEventInfo\": {\"list_total_count\": \(count), \"RESULT\": {\"CODE\": \"INFO-000\", \"MESSAGE\": \"정상 처리되었습니다\"}, \"row\": [\n"
        text.reserveCapacity(count * 480)
        for index in 0..<count {
            let category = random.pick(categories)
            let district = random.pick(SeoulDistricts.all)
            let title = "\(random.pick(words)) \(random.pick(words)) \(category.split(separator: "/").first ?? "") #\(index + 1)"
            let place = "\(district) \(random.pick(venues))"
            let start = origin.adding(days: random.below(4 * 365))
            let end = start.adding(days: random.below(10) < 6 ? 0 : random.below(90))
            let free = random.below(10) < 4
            if index > 0 { text += ",\n" }
            text += """
                {"CODENAME": "\(category)", "GUNAME": "\(district)", "TITLE": "\(title)", "DATE": "\(start)~\(end)", "PLACE": "\(place)", \
                "ORG_NAME": "\(district)청", "USE_TRGT": "\(random.pick(audiences))", "USE_FEE": "\(free ? "" : "\(1 + random.below(15))0,000원")", \
                "ORG_LINK": "https://example.seoul.go.kr/e/\(index + 1)", "MAIN_IMG": "", "STRTDATE": "\(start) 00:00:00.0", \
                "END_DATE": "\(end) 00:00:00.0", "IS_FREE": "\(free ? "무료" : "유료")", "LOT": "37.5", "LAT": "127.0"}
                """
        }
        text += "\n]}}\n"
        return Data(text.utf8)
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func formatted(_ value: Int) -> String { value.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US"))) }

func milliseconds(_ value: Double) -> String { fixed(value * 1000, 3) + " ms" }

func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

/// Runs `sqlite3` on `database` with `script` on standard input, output discarded; returns the wall time.
func timeShell(_ sqlite3: String, database: String, script: String) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: sqlite3)
    process.arguments = ["-batch", "-readonly", database]
    let input = Pipe()
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    let clock = ContinuousClock()
    let start = clock.now
    try process.run()
    input.fileHandleForWriting.write(Data(script.utf8))
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    let elapsed = seconds(clock.now - start)
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    guard process.terminationStatus == 0, message.isEmpty else { throw BenchError("sqlite3 failed: \(message)") }
    return elapsed
}

@main
struct BenchArchive {
    static func main() async {
        do {
            try await run(Options(Array(CommandLine.arguments.dropFirst())))
        } catch {
            FileHandle.standardError.write(Data("BenchArchive: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run(_ options: Options) async throws {
        guard FileManager.default.isExecutableFile(atPath: options.sqlite3) else {
            throw BenchError("no sqlite3 shell at \(options.sqlite3) (apt-get install sqlite3, or pass --sqlite3 PATH)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-archive-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if !options.keep { try? FileManager.default.removeItem(at: folder) } }
        let clock = ContinuousClock()
        let version = (try? shellVersion(options.sqlite3)) ?? "?"
        print(
            "BenchArchive — \(formatted(options.events)) generated events (seed \(options.seed)), \(options.samples) samples per measure, sqlite3 \(version)"
        )

        // 1. Generate.
        var start = clock.now
        let json = Catalogue.json(count: options.events, seed: options.seed)
        let file = folder.appendingPathComponent("events.json")
        try json.write(to: file)
        print(
            "generate      \(formatted(options.events)) rows of JSON, \(fixed(Double(json.count) / 1_048_576, 1)) MB, in \(fixed(seconds(clock.now - start), 2)) s"
        )

        // 2. Import (decode alone first, to split the time), then import again.
        let databaseURL = folder.appendingPathComponent("bench.sqlite")
        let database = try AppDatabase.open(at: databaseURL, migrations: [ArchiveMigrations.all])
        let store = SQLiteCatalogueStore(database: database)
        let importer = CatalogueImporter(store: store, clock: SystemWallClock())
        start = clock.now
        let rows = try await FileCatalogueSource(path: file.path).rows { _ in }
        let decode = seconds(clock.now - start)
        start = clock.now
        let cleaned = rows.compactMap { $0.flatMap { try? EventNormalizer.normalize($0).get() } }
        let clean = seconds(clock.now - start)
        start = clock.now
        let report = try await importer.run(FileCatalogueSource(path: file.path))
        let total = seconds(clock.now - start)
        guard report.new == rows.count - report.skipped.count else { throw BenchError("unexpected import report: \(report)") }
        print(
            "import        \(formatted(report.rows)) rows in \(fixed(total, 2)) s → \(formatted(Int(Double(report.rows) / total))) rows/s "
                + "(read + decode \(fixed(decode, 2)) s, clean \(fixed(clean, 2)) s, write in one transaction \(fixed(total - decode - clean, 2)) s)"
        )
        guard cleaned.count == report.new else { throw BenchError("cleaned \(cleaned.count) rows, imported \(report.new)") }
        start = clock.now
        let again = try await importer.run(FileCatalogueSource(path: file.path))
        let reimport = seconds(clock.now - start)
        print(
            "re-import     \(formatted(again.rows)) rows in \(fixed(reimport, 2)) s → \(formatted(Int(Double(again.rows) / reimport))) rows/s "
                + "(\(formatted(again.unchanged)) unchanged, \(again.new) new, \(again.updated) updated)")
        let size = [databaseURL.path, databaseURL.path + "-wal"].reduce(0) { sum, path in
            sum + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0)
        }
        print("database      \(fixed(Double(size) / 1_048_576, 1)) MB (file + write-ahead log)")

        // 3. Searches: the real EventCatalogue vs the sqlite3 shell, same SQL, same file.
        let catalogue = StoreEventCatalogue(store: store)
        let queries: [(String, EventQuery)] = [
            (
                "district + category + free + dates (indexed)",
                EventQuery(district: "종로구", category: "전시/미술", free: true, from: Day("2026-03-01"), to: Day("2026-05-31"), perPage: 20)
            ),
            (
                "text \"축제 서울\" + dates (scans every row)",
                EventQuery(text: "축제 서울", from: Day("2025-01-01"), to: Day("2025-12-31"), perPage: 20)
            ),
            ("audience \"어린이\" + paid, page 3", EventQuery(audience: "어린이", free: false, page: 3, perPage: 20)),
        ]
        print("")
        print("search (median per search)                          moa (EventCatalogue)   sqlite3 shell   ratio")
        var worst = 0.0
        for (name, query) in queries {
            let first = try await catalogue.search(query)
            // K searches per sample, so that a sample lasts ~100 ms on our side.
            let probeStart = clock.now
            _ = try await catalogue.search(query)
            let single = max(seconds(clock.now - probeStart), 1e-6)
            let repetitions = min(2000, max(5, Int(0.1 / single)))
            var ours: [Double] = []
            for _ in 0..<options.samples {
                let sampleStart = clock.now
                for _ in 0..<repetitions { _ = try await catalogue.search(query) }
                ours.append(seconds(clock.now - sampleStart) / Double(repetitions))
            }
            let sql = SearchSQL(query).inlined
            let script = String(repeating: sql.count + "\n" + sql.page + "\n", count: repetitions)
            let baseline = String(repeating: "SELECT 1;\n", count: repetitions * 2)
            var shell: [Double] = []
            var empty: [Double] = []
            for _ in 0..<options.samples {
                shell.append(try timeShell(options.sqlite3, database: databaseURL.path, script: script))
                empty.append(try timeShell(options.sqlite3, database: databaseURL.path, script: baseline))
            }
            let theirs = max((median(shell) - median(empty)) / Double(repetitions), 1e-9)
            let ratio = median(ours) / theirs
            worst = max(worst, ratio)
            let label = "\(name) [\(formatted(first.total)) matches]"
            let columns: [String] = [
                label + String(repeating: " ", count: max(0, 52 - label.count)),
                milliseconds(median(ours)).leftPadded(20),
                milliseconds(theirs).leftPadded(16),
                (fixed(ratio, 2) + "×").leftPadded(8),
            ]
            print(columns.joined())
        }
        print("")
        print("worst ratio \(fixed(worst, 2))× — target ≤ 3×: \(worst <= 3 ? "met" : "NOT met")")
        if options.keep { print("kept \(folder.path)") }
    }

    static func shellVersion(_ sqlite3: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sqlite3)
        process.arguments = ["-version"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: " ").first.map(
            String.init) ?? "?"
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
