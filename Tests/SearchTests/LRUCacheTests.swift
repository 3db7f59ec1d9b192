import SearchData
import TestSupport
import Testing

@Suite("Search: LRU cache")
struct LRUCacheTests {
    @Test func evictsTheLeastRecentlyUsedInOrder() async {
        let cache = LRUCache<String, Int>(capacity: 3)
        for (index, key) in ["a", "b", "c"].enumerated() { #expect(await cache.put(key, index) == nil) }
        #expect(await cache.keysByRecency == ["c", "b", "a"])
        let first = await cache.put("d", 3)
        #expect(first?.key == "a" && first?.value == 0)
        let second = await cache.put("e", 4)
        #expect(second?.key == "b")
        #expect(await cache.keysByRecency == ["e", "d", "c"])
        #expect(await cache.count == 3)
        #expect(await cache.get("a") == nil)
    }

    @Test func getRefreshesRecencyAndPeekDoesNot() async {
        let cache = LRUCache<String, Int>(capacity: 3)
        await cache.put("a", 1)
        await cache.put("b", 2)
        await cache.put("c", 3)
        #expect(await cache.get("a") == 1) // a is now the most recent: b is the oldest
        #expect(await cache.peek("b") == 2) // a peek does not save b
        #expect(await cache.put("d", 4)?.key == "b")
        #expect(await cache.keysByRecency == ["d", "a", "c"])
    }

    @Test func puttingAnExistingKeyReplacesItsValueAndRefreshesIt() async {
        let cache = LRUCache<String, Int>(capacity: 2)
        await cache.put("a", 1)
        await cache.put("b", 2)
        #expect(await cache.put("a", 10) == nil) // no eviction: same key
        #expect(await cache.put("c", 3)?.key == "b")
        #expect(await cache.get("a") == 10)
        #expect(await cache.count == 2)
    }

    @Test func capacityOneKeepsOnlyTheLatest() async {
        let cache = LRUCache<Int, String>(capacity: 1)
        #expect(await cache.put(1, "one") == nil)
        #expect(await cache.get(1) == "one")
        let evicted = await cache.put(2, "two")
        #expect(evicted?.key == 1 && evicted?.value == "one")
        #expect(await cache.get(1) == nil)
        #expect(await cache.get(2) == "two")
        #expect(await cache.put(2, "deux") == nil)
        #expect(await cache.keysByRecency == [2])
        #expect(await cache.count == 1)
    }

    @Test(arguments: [0, -5])
    func aCapacityBelowOneIsTakenAsOne(capacity: Int) async {
        let cache = LRUCache<Int, Int>(capacity: capacity)
        #expect(await cache.capacity == 1)
        await cache.put(1, 1)
        await cache.put(2, 2)
        #expect(await cache.keysByRecency == [2])
    }

    @Test func removingKeepsTheListConsistentWherever() async {
        let cache = LRUCache<String, Int>(capacity: 4)
        for (index, key) in ["a", "b", "c", "d"].enumerated() { await cache.put(key, index) }
        #expect(await cache.removeValue(forKey: "a") == 0) // slot 0: the last slot moves into it
        #expect(await cache.removeValue(forKey: "d") == 3) // the head
        #expect(await cache.removeValue(forKey: "zz") == nil)
        #expect(await cache.keysByRecency == ["c", "b"])
        await cache.put("e", 4)
        await cache.put("f", 5)
        #expect(await cache.put("g", 6)?.key == "b")
        #expect(await cache.keysByRecency == ["g", "f", "e", "c"])
        await cache.removeAll()
        #expect(await cache.count == 0)
        #expect(await cache.keysByRecency.isEmpty)
        await cache.put("x", 1)
        #expect(await cache.keysByRecency == ["x"])
    }

    /// Thousands of random operations agree with a simple, obviously correct model (an array in
    /// recency order), at several capacities.
    @Test(arguments: [1, 2, 3, 7, 64])
    func agreesWithAReferenceModel(capacity: Int) {
        var list = LRUList<Int, Int>(capacity: capacity)
        var model: [(key: Int, value: Int)] = [] // most recent first
        var random = SeededGenerator(seed: UInt64(capacity))
        for step in 0..<5_000 {
            let key = Int(random.next() % UInt64(capacity * 2 + 1))
            switch random.next() % 4 {
            case 0, 1:
                let evicted = list.put(key, step)
                var expected: (key: Int, value: Int)?
                if let index = model.firstIndex(where: { $0.key == key }) {
                    model.remove(at: index)
                } else if model.count == capacity {
                    expected = model.removeLast()
                }
                model.insert((key, step), at: 0)
                #expect(evicted?.key == expected?.key && evicted?.value == expected?.value)
            case 2:
                let value = list.get(key)
                if let index = model.firstIndex(where: { $0.key == key }) {
                    let entry = model.remove(at: index)
                    model.insert(entry, at: 0)
                    #expect(value == entry.value)
                } else {
                    #expect(value == nil)
                }
            default:
                let removed = list.removeValue(forKey: key)
                let index = model.firstIndex { $0.key == key }
                #expect(removed == index.map { model[$0].value })
                if let index { model.remove(at: index) }
            }
            #expect(list.count == model.count)
        }
        #expect(list.keysByRecency == model.map(\.key))
    }

    @Test(.timeLimit(.minutes(1)))
    func manyTasksAtOnceNeverBreakIt() async {
        let capacity = 50
        let cache = LRUCache<Int, Int>(capacity: capacity)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<32 {
                group.addTask {
                    for step in 0..<500 {
                        let key = (worker * 7 + step) % 120
                        if step.isMultiple(of: 3) {
                            if let value = await cache.get(key) { #expect(value % 1_000 == key) }
                        } else {
                            await cache.put(key, step * 1_000 + key)
                        }
                    }
                }
            }
        }
        let keys = await cache.keysByRecency
        #expect(keys.count == capacity)
        #expect(Set(keys).count == capacity)
        #expect(await cache.count == capacity)
        for key in keys { #expect(await cache.peek(key).map { $0 % 1_000 } == key) }
    }
}
