import SettingsDomain
import SettingsInterface
import SharedKit
import Testing

/// What a server's ``SnapshotCache`` promises: a user's snapshot is read once a while, a change
/// through this server is seen at once, one through another server within the cache's lifetime.
@Suite("Settings: a server's snapshot cache")
struct SnapshotCacheTests {
    let store = MemorySettingsStore()
    let clock = ManualWallClock()

    /// A server's settings on the shared store, acting for `scope`, with its own cache.
    func server(_ scope: SettingsScope = .ada, cache: SnapshotCache? = nil) -> (SettingsManager, SnapshotCache) {
        let cache = cache ?? SnapshotCache(clock: clock)
        return (SettingsManager(store: store, scopes: SwitchableScope(scope), cache: cache), cache)
    }

    @Test func aChangeThroughThisServerIsSeenAtOnce() async throws {
        let (here, cache) = server()
        #expect(try await here.snapshot().pageSize == 20)
        #expect(cache.count == 1)
        _ = try await here.set("display.page-size", to: "33")
        #expect(try await here.snapshot().pageSize == 33)
        _ = try await here.reset("display.page-size")
        #expect(try await here.snapshot().pageSize == 20)
        _ = try await here.set("display.page-size", to: "40")
        _ = try await here.resetAll()
        #expect(try await here.snapshot().pageSize == 20)
    }

    @Test func aChangeThroughAnotherServerIsSeenHereWithinTheLifetime() async throws {
        let (here, _) = server()
        let (elsewhere, _) = server()
        #expect(try await here.snapshot().pageSize == 20)
        _ = try await elsewhere.set("display.page-size", to: "33")
        #expect(try await SettingsManager(store: store, scopes: SwitchableScope(.ada)).snapshot().pageSize == 33, "the store has it")
        clock.advance(by: SnapshotCache.lifetime - 0.001)
        #expect(try await here.snapshot().pageSize == 20, "remembered, within the lifetime")
        clock.advance(by: 0.001)
        #expect(try await here.snapshot().pageSize == 33, "read again once the lifetime is over")
    }

    @Test func eachUserHasTheirOwnSnapshotAndADeviceChangeReachesEveryOne() async throws {
        let cache = SnapshotCache(clock: clock)
        let (ada, _) = server(.ada, cache: cache)
        let (bob, _) = server(.bob, cache: cache)
        let (device, _) = server(.device, cache: cache)
        _ = try await ada.set("display.page-size", to: "33")
        #expect(try await ada.snapshot().pageSize == 33)
        #expect(try await bob.snapshot().pageSize == 20)
        _ = try await device.set("display.page-size", to: "44")
        #expect(try await bob.snapshot().pageSize == 44, "bob inherits the device's value at once")
        #expect(try await ada.snapshot().pageSize == 33, "ada's own value still wins")
    }

    @Test func theCacheHoldsAtMostItsCapacity() async throws {
        let cache = SnapshotCache(clock: clock, capacity: 2)
        for n in 0..<5 {
            let (user, _) = server(.user(id: "user-\(n)", email: "user\(n)@example.com"), cache: cache)
            _ = try await user.set("display.page-size", to: "\(30 + n)")
            #expect(try await user.snapshot().pageSize == 30 + n)
            #expect(cache.count <= 2)
        }
    }
}
