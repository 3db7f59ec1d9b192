import Foundation
import Persistence
import SettingsDomain
import SharedKit
import Testing

// Settings' store (`SettingsStore`) and eraser (`SettingsEraser`) on both engines: what
// SettingsManager relies on, and what two `moa-server` processes sharing one PostgreSQL database
// need to hold (a change is read, checked and written as one, whoever else changes the scope).

private let ada = SettingsScope.user(id: "user-ada", email: "ada@example.com")
private let bob = SettingsScope.user(id: "user-bob", email: "bob@example.com")

/// Stores `values` in `scope`, one change.
private func store(_ values: [String: String], in scope: SettingsScope, on stores: Stores) async throws {
    try await stores.settings.modify(scope) { stored in stored.own.merge(values) { _, new in new } }
}

/// What a change refuses with (SettingsManager's are `SettingsError`s).
private struct ChangeRefused: Error, Equatable {}

/// What another feature's work in the same transaction throws.
private struct LaterFailure: Error {}

/// A token no engine can open.
@Suite("Settings store contract")
struct SettingsStoreContractTests {
    // MARK: Reading and changing

    @Test(arguments: Engine.allCases)
    func theDeviceAndEachUserKeepTheirOwnValuesAndUsersFallBackToTheDevices(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            #expect(try await stores.settings.values(in: .device) == StoredSettings())
            #expect(try await stores.settings.values(in: ada) == StoredSettings())

            try await store(["display.page-size": "30", "display.language": "ko"], in: .device, on: stores)
            try await store(["display.page-size": "50", "transfer.per-transfer-limit": "1000000"], in: ada, on: stores)
            try await store(["display.language": "en"], in: bob, on: stores)

            let device = ["display.page-size": "30", "display.language": "ko"]
            #expect(try await stores.settings.values(in: .device) == StoredSettings(own: device, fallback: [:]))
            #expect(
                try await stores.settings.values(in: ada)
                    == StoredSettings(own: ["display.page-size": "50", "transfer.per-transfer-limit": "1000000"], fallback: device))
            #expect(try await stores.settings.values(in: bob) == StoredSettings(own: ["display.language": "en"], fallback: device))
            #expect(try await stores.settings.values(in: .user(id: "user-nobody", email: "x@example.com")).own.isEmpty)
        }
    }

    @Test(arguments: Engine.allCases)
    func aValueIsStoredAsGivenAndReplacedByTheNextChange(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            let text = "tok_'quoted' \"twice\" ☃ \\ ; DROP TABLE settings_value; --"
            try await store(["search.api-token": text, "display.page-size": "30"], in: ada, on: stores)
            #expect(try await stores.settings.values(in: ada).own == ["search.api-token": text, "display.page-size": "30"])

            try await store(["display.page-size": "31"], in: ada, on: stores)
            #expect(try await stores.settings.values(in: ada).own == ["search.api-token": text, "display.page-size": "31"])
        }
    }

    @Test(arguments: Engine.allCases)
    func aChangeIsGivenTheStoredValuesAndItsResultIsReturned(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            try await store(["display.color": "never"], in: .device, on: stores)
            try await store(["display.page-size": "50"], in: ada, on: stores)
            let seen = try await stores.settings.modify(ada) { stored in
                let seen = stored
                stored.own["display.language"] = "ko"
                return seen
            }
            #expect(seen == StoredSettings(own: ["display.page-size": "50"], fallback: ["display.color": "never"]))
            #expect(try await stores.settings.values(in: ada).own == ["display.page-size": "50", "display.language": "ko"])
        }
    }

    @Test(arguments: Engine.allCases)
    func removingAValueDeletesOnlyItAndTheUserFallsBackToTheDevicesAgain(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            try await store(["display.page-size": "30"], in: .device, on: stores)
            try await store(["display.page-size": "50", "display.language": "ko"], in: ada, on: stores)
            try await store(["display.page-size": "60"], in: bob, on: stores)

            let removed = try await stores.settings.modify(ada) { $0.own.removeValue(forKey: "display.page-size") != nil }
            #expect(removed)
            #expect(
                try await stores.settings.values(in: ada)
                    == StoredSettings(own: ["display.language": "ko"], fallback: ["display.page-size": "30"]))
            #expect(try await stores.settings.values(in: bob).own == ["display.page-size": "60"])

            try await stores.settings.modify(.device) { $0.own["display.page-size"] = nil }
            #expect(try await stores.settings.values(in: .device).own.isEmpty)
            #expect(try await stores.settings.values(in: ada) == StoredSettings(own: ["display.language": "ko"], fallback: [:]))
        }
    }

    @Test(arguments: Engine.allCases)
    func clearingAScopeRemovesOnlyThatScopesValues(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            try await store(["display.color": "never"], in: .device, on: stores)
            try await store(
                ["display.page-size": "10", "account.default": "110-234-567890", "search.api-token": "tok_1234567890abcdef"], in: ada,
                on: stores)
            try await store(["display.page-size": "20"], in: bob, on: stores)

            let removed = try await stores.settings.modify(ada) { stored in
                let count = stored.own.count
                stored.own = [:]
                return count
            }
            #expect(removed == 3)
            #expect(try await stores.settings.values(in: ada) == StoredSettings(own: [:], fallback: ["display.color": "never"]))
            #expect(try await stores.settings.values(in: bob).own == ["display.page-size": "20"])
            #expect(try await stores.settings.values(in: .device).own == ["display.color": "never"])
        }
    }

    @Test(arguments: Engine.allCases)
    func aChangeThatThrowsWritesNothing(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            try await store(["transfer.daily-limit": "20000000", "display.page-size": "30"], in: ada, on: stores)
            let before = try await stores.settings.values(in: ada)
            await #expect(throws: ChangeRefused()) {
                try await stores.settings.modify(ada) { stored in
                    stored.own["transfer.per-transfer-limit"] = "25000000"
                    stored.own["display.page-size"] = nil
                    stored.own["transfer.daily-limit"] = "1"
                    throw ChangeRefused() // SettingsManager: the per-transfer limit would exceed the daily one
                }
            }
            #expect(try await stores.settings.values(in: ada) == before)
        }
    }

    // MARK: Several changes at once (several server processes)

    @Test(arguments: Engine.allCases)
    func concurrentChangesToOneScopeLoseNoUpdate(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            try await store(["display.color": "never"], in: .device, on: stores)
            let changes = 16
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 1...changes {
                    group.addTask {
                        // A read-modify-write of one value, and a value of its own.
                        try await stores.settings.modify(ada) { stored in
                            let count = stored.own["test.counter"].flatMap { Int($0) } ?? 0
                            stored.own["test.counter"] = String(count + 1)
                            stored.own["test.change-\(index)"] = "done"
                        }
                    }
                }
                try await group.waitForAll()
            }
            let own = try await stores.settings.values(in: ada).own
            #expect(own["test.counter"] == String(changes))
            #expect(own.count == changes + 1)
            #expect(try await stores.settings.values(in: .device).own == ["display.color": "never"])
        }
    }

    /// Each change checks the other key before setting its own (as SettingsManager checks the
    /// per-transfer limit against the daily one): changes checked against each other must behave as
    /// if made one after another, so the rule holds however they overlap.
    @Test(arguments: Engine.allCases)
    func changesCheckedAgainstEachOtherNeverBothLand(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            for round in 1...3 {
                let scope = SettingsScope.user(id: "user-\(round)", email: "user\(round)@example.com")
                let landed = try await withThrowingTaskGroup(of: String?.self) { group in
                    for index in 1...12 {
                        let (mine, other) = index.isMultiple(of: 2) ? ("test.x", "test.y") : ("test.y", "test.x")
                        group.addTask {
                            do {
                                try await stores.settings.modify(scope) { stored in
                                    guard stored.own[other] == nil else { throw ChangeRefused() }
                                    stored.own[mine] = "\(index)"
                                }
                                return mine
                            } catch is ChangeRefused {
                                return nil
                            }
                        }
                    }
                    return try await group.reduce(into: Set<String>()) { landed, key in
                        if let key { landed.insert(key) }
                    }
                }
                let own = try await stores.settings.values(in: scope).own
                #expect(landed.count == 1, "round \(round): changes of both keys were accepted: \(landed.sorted())")
                #expect(Set(own.keys) == landed)
            }
        }
    }

    // MARK: Erasing (user deletion)

    @Test(arguments: Engine.allCases)
    func erasingAScopeRemovesExactlyItsValuesAndSaysHowMany(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            try await store(["display.page-size": "30"], in: .device, on: stores)
            try await store(["display.language": "ko", "transfer.per-transfer-limit": "1000000"], in: ada, on: stores)
            try await store(["display.page-size": "50"], in: bob, on: stores)

            let erased = try await stores.unitOfWork.perform { transaction in
                try stores.settingsEraser.eraseValues(inScope: "user-ada", in: transaction)
            }
            #expect(erased == 2)
            #expect(try await stores.settings.values(in: ada) == StoredSettings(own: [:], fallback: ["display.page-size": "30"]))
            #expect(try await stores.settings.values(in: bob).own == ["display.page-size": "50"])
            #expect(try await stores.settings.values(in: .device).own == ["display.page-size": "30"])
            let again = try await stores.unitOfWork.perform { transaction in
                try stores.settingsEraser.eraseValues(inScope: "user-ada", in: transaction)
            }
            #expect(again == 0)
        }
    }

    @Test(arguments: Engine.allCases)
    func anEraseThatRollsBackKeepsTheValues(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            try await store(["display.language": "ko"], in: ada, on: stores)
            await #expect(throws: LaterFailure.self) {
                try await stores.unitOfWork.perform { transaction in
                    try stores.settingsEraser.eraseValues(inScope: "user-ada", in: transaction)
                    throw LaterFailure() // another feature failed after Settings erased: the deletion is undone
                }
            }
            #expect(try await stores.settings.values(in: ada).own == ["display.language": "ko"])
        }
    }

    @Test(arguments: Engine.allCases)
    func aTransactionTokenOfAnotherEngineIsRefused(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            #expect(throws: ForeignTransactionError.self) {
                try stores.settingsEraser.eraseValues(inScope: "user-ada", in: ForeignTransaction())
            }
        }
    }
}
