import Foundation
import SharedKit
import Testing

/// SharedKit's ``ExpiringCache``, bounded: when full, the expired entries go, and if fewer than a
/// quarter had expired, all go — a cache kept just full would otherwise search all its entries on
/// every remember (10,000 of them, on every request of a busy server).
@Suite("Expiring cache")
struct ExpiringCacheTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// 8 entries, those of `readEarly` read at `start`, the others 5 s later; lifetime 10 s.
    func full(readEarly: Int) -> ExpiringCache<Int, Int> {
        let cache = ExpiringCache<Int, Int>(lifetime: 10, capacity: 8)
        for key in 0..<8 {
            cache.remember(key, for: key, readAt: start.addingTimeInterval(key < readEarly ? 0 : 5), since: cache.generation)
        }
        return cache
    }

    @Test func aFullCacheWithFewExpiredEntriesStartsAfresh() {
        let cache = full(readEarly: 1)
        #expect(cache.count == 8)
        cache.remember(8, for: 8, readAt: start.addingTimeInterval(12), since: cache.generation)
        #expect(cache.count == 1)
        #expect(cache.value(for: 8, at: start.addingTimeInterval(12)) == 8)
        // The next six remembers search nothing and drop nothing.
        for key in 9..<15 { cache.remember(key, for: key, readAt: start.addingTimeInterval(12), since: cache.generation) }
        #expect(cache.count == 7)
    }

    @Test func aFullCacheWithAQuarterExpiredKeepsItsLiveEntries() {
        let cache = full(readEarly: 2)
        cache.remember(8, for: 8, readAt: start.addingTimeInterval(12), since: cache.generation)
        #expect(cache.count == 7)
        #expect((2..<9).allSatisfy { cache.value(for: $0, at: start.addingTimeInterval(12)) == $0 })
        #expect(cache.value(for: 0, at: start.addingTimeInterval(12)) == nil)
    }

    @Test(arguments: [1, 2, 3, 8])
    func neverMoreThanItsCapacity(_ capacity: Int) {
        let cache = ExpiringCache<Int, Int>(lifetime: 10, capacity: capacity)
        for key in 0..<50 {
            cache.remember(key, for: key, readAt: start.addingTimeInterval(Double(key) / 10), since: cache.generation)
            #expect(cache.count <= capacity)
        }
    }
}
