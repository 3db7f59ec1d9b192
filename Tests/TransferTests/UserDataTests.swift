import AuthInterface
import AuthTesting
import Foundation
import GRDB
import Money
import Persistence
import Registry
import SharedKit
import Storage
import Testing
import TransferData
import TransferDomain
import TransferInterface

@Suite("Deleting a user: Transfer's part")
struct UserDataTests {
    /// Transfer's `UserDataOwner` as the App composes it (TransferUserDataKey), on the fixture's database.
    static func owner(_ f: RecipientFixture) throws -> any UserDataOwner {
        try RegistryBuilder(modules: [
            ModuleOf.core(database: f.transfers.database),
            TransferDataModule(),
            ModuleOf("Transfer", SendMoney.providers.filter { $0.key == KeyInfo(TransferUserDataKey.self) }),
        ]).validate(root: TransferUserDataKey.self).resolve()
    }

    @Test func nothingBlocksAndErasingRemovesFavouritesRecentsTotalsAndTheLinkToTheUser() async throws {
        let f = try RecipientFixture()
        let ada = FakeSessionProvider.ada.id
        let bob: UserID = "user-bob"
        let to = try numbers(2)
        for n in 1...3 { try await f.record(sent(n, to: to[n % 2])) }
        try await f.record(sent(4, to: to[0], user: bob))
        try await f.recipients.add(FavouriteRecipient(alias: "mom", accountNumber: to[0], addedAt: .distantPast), of: ada)
        try await f.recipients.add(FavouriteRecipient(alias: "mom", accountNumber: to[0], addedAt: .distantPast), of: bob)

        let owner = try Self.owner(f)
        #expect(owner.name == "Transfer")
        try await f.transfers.database.perform { transaction in
            #expect(try owner.deletionBlockers(for: ada, in: transaction).isEmpty)
            try owner.erase(ada, in: transaction)
        }

        // Ada's own lists are gone, and her history no longer finds the transfers.
        #expect(try await f.recipients.favourites(of: ada).isEmpty)
        #expect(try await f.recipients.recentRecipients(of: ada, limit: 10).isEmpty)
        #expect(try await f.transfers.store.transfers(initiatedBy: ada, before: nil, limit: 10).isEmpty)
        // The rows stay (the receivers' histories point to them), under a tombstone that is not Ada.
        #expect(try f.transfers.count("transfer_transfers") == 4)
        let senders = try f.transfers.database.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT initiated_by FROM transfer_transfers ORDER BY initiated_by")
        }
        #expect(!senders.contains(ada.rawValue))
        #expect(senders.count == 2 && senders.contains(bob.rawValue))
        #expect(senders.contains { $0.hasPrefix("deleted-") })
        let adaTotals = try f.transfers.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM transfer_totals WHERE initiated_by = ?", arguments: [ada.rawValue])
        }
        #expect(adaTotals == 0)
        // Bob is untouched.
        #expect(try await f.recipients.favourites(of: bob).map(\.alias) == ["mom"])
        #expect(try await f.recipients.recentRecipients(of: bob, limit: 10).map(\.accountNumber) == [to[0]])
        #expect(try await f.transfers.store.transfers(initiatedBy: bob, before: nil, limit: 10).count == 1)
    }

    @Test func twoDeletedUsersWithTheSameKeysDoNotCollide() async throws {
        let f = try RecipientFixture()
        let to = try numbers(1)
        try await f.record(sent(1, to: to[0], user: "user-a"))
        try await f.record(sent(1, to: to[0], user: "user-b")) // the same idempotency key, another user
        let owner = try Self.owner(f)
        try await f.transfers.database.perform { try owner.erase("user-a", in: $0) }
        try await f.transfers.database.perform { try owner.erase("user-b", in: $0) }
        #expect(try f.transfers.count("transfer_transfers") == 2)
    }

    @Test func aRolledBackDeletionChangesNothing() async throws {
        let f = try RecipientFixture()
        let ada = FakeSessionProvider.ada.id
        try await f.record(sent(1, to: try numbers(1)[0]))
        let owner = try Self.owner(f)
        struct AnotherFeatureRefused: Error {}
        await #expect(throws: AnotherFeatureRefused.self) {
            try await f.transfers.database.perform { transaction in
                try owner.erase(ada, in: transaction)
                throw AnotherFeatureRefused()
            }
        }
        #expect(try await f.transfers.store.transfers(initiatedBy: ada, before: nil, limit: 10).count == 1)
        #expect(try await f.recipients.recentRecipients(of: ada, limit: 10).count == 1)
    }
}
