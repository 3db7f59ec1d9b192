import AccountInterface
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
import TransferTesting

/// The real recipient store on the same SQLite database as the transfer store.
struct RecipientFixture {
    let transfers: StoreFixture
    let recipients: any RecipientStore

    init() throws {
        transfers = try StoreFixture()
        recipients = try RegistryBuilder(modules: [ModuleOf.core(database: transfers.database), TransferDataModule()])
            .validate(root: RecipientStoreKey.self).resolve()
    }

    /// Records `transfer` the way SendMoney does: in a unit of work.
    func record(_ transfer: TransferSummary) async throws {
        let store = transfers.store
        try await transfers.database.perform { try store.insert(transfer, in: $0) }
    }
}

/// A transfer from Ada (or `user`) to `to`, numbered `n`, a minute after the last.
func sent(_ n: Int, to: String, user: UserID = FakeSessionProvider.ada.id) -> TransferSummary {
    TransferSummary(
        id: TransferID("r-\(user.rawValue)-\(n)"), from: "110-0000-0001-5", to: to, amount: krw(1_000), memo: nil,
        idempotencyKey: "rk-\(n)", createdAt: Date(timeIntervalSince1970: 1_767_225_600 + Double(n) * 60), initiatedBy: user,
        fromBalanceAfter: krw(0))
}

/// `count` valid account numbers nobody needs to own (the store does not check).
func numbers(_ count: Int) throws -> [String] {
    try (1...count).map { try AccountNumber(prefix: String(format: "330%08d", $0)).description }
}

@Suite("Recipients: aliases, favourites, recents")
struct RecipientsTests {
    @Test(arguments: ["mom", "@Mom", "a", "rent-2026_jan", String(repeating: "x", count: 20), "  @bob  "])
    func goodAliases(typed: String) throws {
        let alias = try RecipientAlias(typed)
        #expect(!alias.name.hasPrefix("@") && !alias.name.contains(" "))
        #expect(alias.key == alias.name.lowercased())
    }

    @Test(
        "a Korean user's favourites are aliases too, in NFC, compared without case or width",
        arguments: [
            ("엄마", "엄마"), ("@친구", "친구"), ("월세", "월세"), ("Ελένη", "ελένη"), ("ｍｏｍ", "mom"),
            ("\u{1100}\u{1161}", "가"), // a decomposed 가 is stored composed
            ("七", "七"), ("9拐", "9拐"), // ideographs with a numeric reading are letters (found by Scripts/fuzz alias)
            (String(repeating: "가", count: 20), String(repeating: "가", count: 20)),
        ])
    func aliasesInAnyScript(typed: String, key: String) throws {
        let alias = try RecipientAlias(typed)
        #expect(alias.key == key)
        #expect(alias.name == alias.name.precomposedStringWithCanonicalMapping)
    }

    @Test(
        "white space around an alias is not part of it, and an alias of white space alone is refused",
        arguments: [(" 엄마", "엄마"), ("엄마\u{3000}", "엄마"), ("\t@mom\n", "mom"), ("  Ελένη  ", "ελένη")])
    func whiteSpaceAroundAnAlias(typed: String, key: String) throws {
        #expect(try RecipientAlias(typed).key == key)
        #expect(throws: (any Error).self) { try RecipientAlias(" \u{3000}\n") }
    }

    @Test(
        "what could pass for an account number, or hide or reorder text, is refused",
        arguments: [
            "1101234", "110-1234-5678-9", "2026", "--", "_", "엄\u{202E}마", "mom\u{200B}", "a\u{1B}[31m", "엄마 ❤️", "🏠",
            String(repeating: "가", count: 21),
            "00\u{0730}1", // found by Scripts/fuzz alias: digits under a combining mark still read as a number
        ])
    func confusableAliasesAreRefused(typed: String) {
        #expect(throws: TransferError.invalidAlias(typed)) { try RecipientAlias(typed) }
    }

    @Test(arguments: ["", "@", "@@mom", String(repeating: "x", count: 21), "two words", "mom!", "a.b"])
    func badAliasesAreRefusedAsData(typed: String) {
        #expect(throws: TransferError.invalidAlias(typed)) { try RecipientAlias(typed) }
        #expect(TransferError.invalidAlias(typed).exitStatus == .dataError)
        #expect(TransferError.invalidAlias(typed).message.contains("1 to 20 letters, digits"))
    }

    @Test func addingListsByAliasWithTheCanonicalNumberAndTheDate() async throws {
        let h = try Harness()
        let book = h.book()
        let added = try await book.add(number: h.bobs.digits, alias: "@Bob")
        #expect(added == FavouriteRecipient(alias: "Bob", accountNumber: h.bobs.description, addedAt: h.clock.now()))
        _ = try await book.add(number: h.savings.description, alias: "able")
        let list = try await book.recipients()
        #expect(list.favourites.map(\.alias) == ["able", "Bob"])
        #expect(list.favourite(named: "@BOB")?.accountNumber == h.bobs.description)
        #expect(list.recents.isEmpty)
    }

    @Test func duplicatesBadNumbersAndUnknownAccountsAreRefusedClearly() async throws {
        let h = try Harness()
        let book = h.book()
        _ = try await book.add(number: h.bobs.description, alias: "bob")
        await #expect(throws: TransferError.aliasTaken(alias: "bob", accountNumber: h.bobs.description)) {
            _ = try await book.add(number: h.savings.description, alias: "BOB")
        }
        await #expect(throws: TransferError.alreadyAFavourite(accountNumber: h.bobs.description, alias: "bob")) {
            _ = try await book.add(number: h.bobs.digits, alias: "bobby")
        }
        #expect(
            TransferError.aliasTaken(alias: "bob", accountNumber: h.bobs.description).message
                == "You already have a favourite called @bob (\(h.bobs.description)).")
        await #expect(throws: AccountNumberError.self) { _ = try await book.add(number: "110-0000-0003-2", alias: "typo") }
        await #expect(throws: PostingError.unknownAccount(h.nobodys)) {
            _ = try await book.add(number: h.nobodys.description, alias: "ghost")
        }
        await #expect(throws: TransferError.invalidAlias("bad alias")) {
            _ = try await book.add(number: h.savings.description, alias: "bad alias")
        }
        #expect(try await book.recipients().favourites.count == 1)
    }

    @Test func koreanAliasesAreSavedFoundAndRemovedAndWidthOrCaseNeverMakesASecondOne() async throws {
        let h = try Harness()
        let book = h.book()
        let mom = try await book.add(number: h.bobs.description, alias: "엄마")
        #expect(mom.alias == "엄마")
        await #expect(throws: TransferError.aliasTaken(alias: "엄마", accountNumber: h.bobs.description)) {
            _ = try await book.add(number: h.savings.description, alias: "@엄마")
        }
        _ = try await book.add(number: h.savings.description, alias: "rent")
        await #expect(throws: TransferError.aliasTaken(alias: "rent", accountNumber: h.savings.description)) {
            _ = try await book.add(number: h.bobsDollars.description, alias: "ＲＥＮＴ")
        }
        #expect(try await book.remove(alias: "@엄마") == mom)
        #expect(try await book.recipients().favourites.map(\.alias) == ["rent"])
    }

    @Test func removingNeedsAnExistingAlias() async throws {
        let h = try Harness()
        let book = h.book()
        _ = try await book.add(number: h.bobs.description, alias: "bob")
        await #expect(throws: TransferError.favouriteNotFound("carol")) { _ = try await book.remove(alias: "carol") }
        #expect(TransferError.favouriteNotFound("carol").exitStatus == .unavailable)
        #expect(TransferError.favouriteNotFound("carol").message == "You have no favourite recipient called @carol.")
        #expect(try await book.remove(alias: "@BOB").accountNumber == h.bobs.description)
        #expect(try await book.recipients().favourites.isEmpty)
    }

    @Test func withoutASessionNothingIsListedOrAdded() async throws {
        let h = try Harness()
        h.session.set(nil)
        await #expect(throws: NotLoggedInError.self) { _ = try await h.book().recipients() }
        await #expect(throws: NotLoggedInError.self) { _ = try await h.book().add(number: h.bobs.description, alias: "bob") }
    }

    @Test func sendingToAnAliasSendsToTheFavouritesNumber() async throws {
        let h = try Harness()
        _ = try await h.book().add(number: h.bobs.description, alias: "bob")
        let receipt = try await h.sendMoney().send(TransferDraft(from: h.checking.description, to: "@BOB", amount: "10,000"))
        #expect(receipt.transfer.to == h.bobs.description)
        #expect(h.accounts.balance(of: h.bobs) == krw(1_010_000))
    }

    @Test func anUnknownAliasIsRefusedNamingItAndNothingIsSent() async throws {
        let h = try Harness()
        await #expect(throws: TransferError.unknownAlias("carol")) {
            _ = try await h.sendMoney().send(TransferDraft(from: h.checking.description, to: "@carol", amount: "10,000"))
        }
        #expect(TransferError.unknownAlias("carol").message == "You have no favourite recipient called @carol, so nothing was sent.")
        #expect(TransferError.unknownAlias("carol").exitStatus == .unavailable)
        await #expect(throws: TransferError.invalidAlias("@not an alias")) {
            _ = try await h.sendMoney().send(TransferDraft(from: h.checking.description, to: "@not an alias", amount: "10,000"))
        }
        #expect(h.accounts.postings.isEmpty && h.store.all.isEmpty && h.inbox.notices.isEmpty)
    }

    @Test func anotherUsersFavouritesAreNotMine() async throws {
        let h = try Harness()
        let f = try RecipientFixture()
        _ = try await h.book(store: f.recipients).add(number: h.bobs.description, alias: "bob")
        h.session.set(Harness.bob)
        #expect(try await h.book(store: f.recipients).recipients().favourites.isEmpty)
        _ = try await h.book(store: f.recipients).add(number: h.checking.description, alias: "bob") // Bob's own "bob"
        await #expect(throws: TransferError.unknownAlias("ada")) {
            _ = try await h.sendMoney(recipients: f.recipients).send(TransferDraft(from: h.bobs.description, to: "@ada", amount: "1"))
        }
        h.session.set(FakeSessionProvider.ada)
        #expect(try await h.book(store: f.recipients).recipients().favourites.map(\.accountNumber) == [h.bobs.description])
    }

    @Test func theSQLiteStoreRefusesDuplicatesAndKeepsTheSpellingGiven() async throws {
        let f = try RecipientFixture()
        let ada = FakeSessionProvider.ada.id
        let date = Date(timeIntervalSince1970: 1_767_225_600)
        let numbers = try numbers(3)
        try await f.recipients.add(FavouriteRecipient(alias: "Mom", accountNumber: numbers[0], addedAt: date), of: ada)
        await #expect(throws: TransferError.aliasTaken(alias: "Mom", accountNumber: numbers[0])) {
            try await f.recipients.add(FavouriteRecipient(alias: "MOM", accountNumber: numbers[1], addedAt: date), of: ada)
        }
        await #expect(throws: TransferError.aliasTaken(alias: "Mom", accountNumber: numbers[0])) {
            try await f.recipients.add(FavouriteRecipient(alias: "ｍｏｍ", accountNumber: numbers[1], addedAt: date), of: ada)
        }
        try await f.recipients.add(FavouriteRecipient(alias: "엄마", accountNumber: numbers[2], addedAt: date), of: ada)
        #expect(try await f.recipients.favourite(RecipientAlias("@엄마"), of: ada)?.accountNumber == numbers[2])
        #expect(try await f.recipients.remove(RecipientAlias("엄마"), of: ada)?.alias == "엄마")
        await #expect(throws: TransferError.alreadyAFavourite(accountNumber: numbers[0], alias: "Mom")) {
            try await f.recipients.add(FavouriteRecipient(alias: "mother", accountNumber: numbers[0], addedAt: date), of: ada)
        }
        try await f.recipients.add(FavouriteRecipient(alias: "Mom", accountNumber: numbers[0], addedAt: date), of: "user-bob")
        #expect(
            try await f.recipients.favourite(try RecipientAlias("mOm"), of: ada)
                == FavouriteRecipient(alias: "Mom", accountNumber: numbers[0], addedAt: date))
        #expect(try await f.recipients.remove(try RecipientAlias("mom"), of: ada)?.alias == "Mom")
        #expect(try await f.recipients.remove(try RecipientAlias("mom"), of: ada) == nil)
        #expect(try await f.recipients.favourites(of: "user-bob").count == 1)
    }

    @Test func recentsAreTheLastTenDistinctDestinationsNewestFirst() async throws {
        let f = try RecipientFixture()
        let to = try numbers(12)
        // 0…11 in order, then 3 again (it moves to the front), and Bob's own transfers (not Ada's recents).
        for (n, number) in to.enumerated() { try await f.record(sent(n, to: number)) }
        try await f.record(sent(12, to: to[3]))
        try await f.record(sent(13, to: to[0], user: "user-bob"))
        let recents = try await f.recipients.recentRecipients(of: FakeSessionProvider.ada.id, limit: Recipients.recentLimit)
        #expect(recents.map(\.accountNumber) == [to[3], to[11], to[10], to[9], to[8], to[7], to[6], to[5], to[4], to[2]])
        #expect(recents.first?.lastSentAt == sent(12, to: to[3]).createdAt)
        #expect(try await f.recipients.recentRecipients(of: "user-bob", limit: 10).map(\.accountNumber) == [to[0]])
        #expect(try f.transfers.count("transfer_recent_recipients") == 13, "one row per user and destination")
    }

    @Test func upgradingADatabaseFillsTheRecentsFromTheTransfersAlreadySent() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("transfer-v2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("moa.sqlite")
        let to = try numbers(3)
        do { // a database of before recipients: only v1
            let v1 = MigrationSet(feature: "Transfer", steps: Array(TransferMigrations.all.steps.prefix(1)))
            let old = try AppDatabase.open(at: url, migrations: [v1])
            for (n, number) in [to[0], to[1], to[0], to[2], to[1]].enumerated() {
                let transfer = sent(n, to: number)
                try await old.write { db in
                    try db.execute(
                        sql: """
                            INSERT INTO transfer_transfers (id, initiated_by, idempotency_key, from_number, to_number, amount, currency, memo,
                                                            from_balance_after, created_at)
                            VALUES (?, ?, ?, ?, ?, 1000, 'KRW', NULL, 0, ?)
                            """,
                        arguments: [
                            transfer.id.rawValue, transfer.initiatedBy.rawValue, transfer.idempotencyKey, transfer.from,
                            transfer.to, transfer.createdAt,
                        ])
                }
            }
        }
        let upgraded = try AppDatabase.open(at: url, migrations: [TransferMigrations.all])
        let store: any RecipientStore = try RegistryBuilder(modules: [ModuleOf.core(database: upgraded), TransferDataModule()])
            .validate(root: RecipientStoreKey.self).resolve()
        let recents = try await store.recentRecipients(of: FakeSessionProvider.ada.id, limit: 10)
        #expect(recents.map(\.accountNumber) == [to[1], to[2], to[0]])
        #expect(recents.first?.lastSentAt == sent(4, to: to[1]).createdAt)
    }

    @Test func aRolledBackTransferLeavesNoRecent() async throws {
        let f = try RecipientFixture()
        let store = f.transfers.store
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await f.transfers.database.perform { transaction in
                try store.insert(sent(1, to: "110-0000-0003-1"), in: transaction)
                throw Refused()
            }
        }
        #expect(try await f.recipients.recentRecipients(of: FakeSessionProvider.ada.id, limit: 10).isEmpty)
    }

    @Test func theBookListsFavouritesAndRecentsThroughTheRegistry() async throws {
        let h = try Harness()
        let f = try RecipientFixture()
        let reading: any RecipientsReading = try RegistryBuilder(modules: [
            ModuleOf.core(database: f.transfers.database, clock: h.clock),
            ModuleOf("Fakes", [.instance(SessionProviderKey.self, h.session), .instance(AccountDirectoryKey.self, h.accounts)]),
            TransferDataModule(),
            ModuleOf(
                "Transfer",
                SendMoney.providers.filter { $0.key == KeyInfo(RecipientsReadingKey.self) || $0.key == KeyInfo(RecipientBookKey.self) }),
        ]).validate(root: RecipientsReadingKey.self).resolve()
        try await f.record(sent(1, to: h.bobs.description))
        let list = try await reading.recipients()
        #expect(list.recents.map(\.accountNumber) == [h.bobs.description])
        #expect(list.favourites.isEmpty)
    }

    @Test func theFakeAnswersWhatItIsGiven() async throws {
        let fake = FakeRecipientsReading(favourites: [
            FavouriteRecipient(alias: "mom", accountNumber: "110-0000-0003-1", addedAt: .distantPast)
        ])
        #expect(try await fake.recipients().favourite(named: "@Mom") != nil)
        fake.fail(with: TransferError.favouriteNotFound("x"))
        await #expect(throws: TransferError.favouriteNotFound("x")) { _ = try await fake.recipients() }
    }
}
