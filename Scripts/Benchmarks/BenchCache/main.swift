// BenchCache: the measuring half of Scripts/bench-cache — is Search's LRU cache O(1)?
//
//     BenchCache [OPERATIONS]
//
// For 10^3, 10^4, 10^5 and 10^6 entries: fills an `LRUCache` (the actor) to capacity, then times
// OPERATIONS (default 1,000,000) random `get`s of present keys and OPERATIONS random `put`s (half
// replace a present key, half insert a new one and evict the least recently used), best of 3 rounds.
// The same on `LRUList`, the storage without the actor, shows what the actor hop costs; the same
// random lookups in a bare `Dictionary<Int, Int>` of the same size are the control: no O(1) structure
// escapes the memory hierarchy (10^6 entries do not fit in the CPU caches), so what must stay flat is
// the cache's cost *relative* to that. Prints one JSON object (nanoseconds per operation by size, and
// the 10^6 / 10^3 ratios). Nothing is asserted.
import Foundation
import SearchData
import TestSupport

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("BenchCache: \(message)\n".utf8))
    exit(70)
}

let operations = CommandLine.arguments.count > 1 ? max(1_000, Int(CommandLine.arguments[1]) ?? 1_000_000) : 1_000_000
let sizes = [1_000, 10_000, 100_000, 1_000_000]
let rounds = 3

func nanoseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

/// Random keys: `gets` all present (0..<size), `puts` half present, half new.
func keys(size: Int, seed: UInt64) -> (gets: [Int], puts: [Int]) {
    var random = SeededGenerator(seed: seed)
    let gets = (0..<operations).map { _ in Int(random.next() % UInt64(size)) }
    var fresh = size
    let puts = (0..<operations).map { index -> Int in
        if index.isMultiple(of: 2) { return Int(random.next() % UInt64(size)) }
        fresh += 1
        return fresh
    }
    return (gets, puts)
}

struct Result: Encodable {
    let entries: Int
    let actorGetNs: Double
    let actorPutNs: Double
    let listGetNs: Double
    let listPutNs: Double
    let dictionaryGetNs: Double
}

/// Best of `rounds` for one size. A nonisolated function (not top-level code, which runs on the main
/// actor): calls to the cache actor then switch executors on the same thread, without a thread hop per call.
func measure(size: Int) async -> (Result, checksum: Int) {
    let (gets, puts) = keys(size: size, seed: UInt64(size))
    let clock = ContinuousClock()
    var checksum = 0
    var best = (
        actorGet: Double.infinity, actorPut: Double.infinity, listGet: Double.infinity, listPut: Double.infinity,
        dictionaryGet: Double.infinity
    )
    for _ in 0..<rounds {
        let cache = LRUCache<Int, Int>(capacity: size)
        for key in 0..<size { await cache.put(key, key) }
        var start = clock.now
        for key in gets { checksum &+= await cache.get(key) ?? 0 }
        best.actorGet = min(best.actorGet, nanoseconds(clock.now - start) / Double(operations))
        start = clock.now
        for key in puts where await cache.put(key, key) != nil { checksum &+= 1 }
        best.actorPut = min(best.actorPut, nanoseconds(clock.now - start) / Double(operations))
        let held = await cache.count
        guard held == size else { fail("the cache holds \(held) entries, not \(size)") }

        var list = LRUList<Int, Int>(capacity: size)
        for key in 0..<size { list.put(key, key) }
        start = clock.now
        for key in gets { checksum &+= list.get(key) ?? 0 }
        best.listGet = min(best.listGet, nanoseconds(clock.now - start) / Double(operations))
        start = clock.now
        for key in puts where list.put(key, key) != nil { checksum &+= 1 }
        best.listPut = min(best.listPut, nanoseconds(clock.now - start) / Double(operations))

        var dictionary: [Int: Int] = [:]
        for key in 0..<size { dictionary[key] = key }
        start = clock.now
        for key in gets { checksum &+= dictionary[key] ?? 0 }
        best.dictionaryGet = min(best.dictionaryGet, nanoseconds(clock.now - start) / Double(operations))
    }
    return (
        Result(
            entries: size, actorGetNs: best.actorGet, actorPutNs: best.actorPut, listGetNs: best.listGet, listPutNs: best.listPut,
            dictionaryGetNs: best.dictionaryGet), checksum
    )
}

var results: [Result] = []
var checksum = 0
for size in sizes {
    let (result, sum) = await measure(size: size)
    results.append(result)
    checksum &+= sum
}

struct Report: Encodable {
    let operations: Int
    let rounds: Int
    let results: [Result]
    let ratios: [String: Double]
    let checksum: Int
}

let first = results[0]
let last = results[results.count - 1]
let report = Report(
    operations: operations, rounds: rounds, results: results,
    ratios: [
        "actor_get": last.actorGetNs / first.actorGetNs, "actor_put": last.actorPutNs / first.actorPutNs,
        "list_get": last.listGetNs / first.listGetNs, "list_put": last.listPutNs / first.listPutNs,
        "dictionary_get": last.dictionaryGetNs / first.dictionaryGetNs,
    ], checksum: checksum)
let encoder = JSONEncoder()
encoder.keyEncodingStrategy = .convertToSnakeCase
encoder.outputFormatting = [.sortedKeys]
do {
    print(String(decoding: try encoder.encode(report), as: UTF8.self))
} catch {
    fail("cannot encode the report: \(error)")
}
