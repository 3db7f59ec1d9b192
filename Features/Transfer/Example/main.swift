// TransferExample: Transfer alone — its real Domain, Data (on an in-memory SQLite database) and
// commands, with Account, Settings, Auth and Inbox replaced by their Testing fakes.
//
//     Scripts/run-example Transfer                   # a walk through send, retry, refusals, batch, list
//     Scripts/run-example Transfer send --from 110-0000-0001-5 --to 220-0000-0002-0 50,000
//
// Ada (logged in) owns 110-0000-0001-5 (20,000,000 KRW) and 220-0000-0002-0; Bob owns 110-0000-0003-1.
// Each run starts afresh: the database lives in memory.
import AccountInterface
import AccountTesting
import AuthTesting
import CommandKit
import DesignSystem
import Foundation
import InboxTesting
import Money
import Persistence
import Registry
import SettingsTesting
import SharedKit
import Storage
import TransferData
import TransferFeature

/// Ada's and Bob's accounts, the way FakeAccounts keeps them.
func seededAccounts() throws -> FakeAccounts {
    let accounts = FakeAccounts()
    try accounts.add(
        owner: FakeSessionProvider.ada.id, number: "110-0000-0001-5", balance: Money(minorUnits: 20_000_000, currency: .krw),
        name: "생활비")
    try accounts.add(owner: FakeSessionProvider.ada.id, number: "220-0000-0002-0", balance: .zero(.krw), name: "Savings", kind: .savings)
    try accounts.add(owner: "user-bob", number: "110-0000-0003-1", balance: .zero(.krw), name: "Bob")
    return accounts
}

/// Where the walk-through's notices land (printed at its end).
enum ExampleInbox {
    static let publisher = FakeInboxPublisher()
}

/// Transfer's commands on fakes and an in-memory store, composed and validated like the app does.
func composeTransfer() throws -> FeatureCommands {
    let database = try AppDatabase.inMemory(migrations: [TransferMigrations.all])
    let accounts = try seededAccounts()
    return try RegistryBuilder(modules: [
        ModuleOf.core(database: database), // FakeAccounts ignores the unit of work's token; the store writes in it
        AuthFakes(),
        AccountFakes(accounts: accounts),
        SettingsFakes(),
        InboxFakes(publisher: ExampleInbox.publisher),
        TransferDataModule(),
        TransferFeatureModule(),
    ]).validate(root: TransferCommandsKey.self).resolve()
}

let arguments = Array(CommandLine.arguments.dropFirst())
if !arguments.isEmpty {
    exit(await CommandRunner.run(TransferCommand.self, arguments: arguments) { _, _ in [try composeTransfer()] })
}

// The walk-through: every step is a real `moa transfer …` command line, run on the same composition.
let group: FeatureCommands
do {
    group = try composeTransfer()
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(70)
}
let theme = Theme.resolve(mode: .auto, terminal: .current(for: .output))
let batchFile = FileManager.default.temporaryDirectory.appendingPathComponent("transfer-example-\(UUID().uuidString).csv")
defer { try? FileManager.default.removeItem(at: batchFile) }
let csv = """
    from,to,amount,memo,idempotency_key
    110-0000-0001-5,110-0000-0003-1,10000,lunch,
    110-0000-0001-5,220-0000-0002-0,250000,savings,
    110-0000-0001-5,110-0000-0003-2,5000,typo in the number,
    110-0000-0001-5,110-0000-0003-1,0,nothing,
    """
do {
    try csv.write(to: batchFile, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("error: cannot write \(batchFile.path): \(error)\n".utf8))
    exit(74)
}

let steps: [(String, [String])] = [
    (
        "Send 50,000 KRW to Bob",
        ["send", "--from", "110-0000-0001-5", "--to", "110-0000-0003-1", "50,000", "--memo", "dinner", "--idempotency-key", "dinner-1"]
    ),
    (
        "Retry with the same key: the original receipt, nothing sent twice",
        ["send", "--from", "110-0000-0001-5", "--to", "110-0000-0003-1", "50,000", "--memo", "dinner", "--idempotency-key", "dinner-1"]
    ),
    (
        "The same key for another amount: refused",
        ["send", "--from", "110-0000-0001-5", "--to", "110-0000-0003-1", "60,000", "--idempotency-key", "dinner-1"]
    ),
    ("Above the per-transfer limit (5,000,000 KRW)", ["send", "--from", "110-0000-0001-5", "--to", "110-0000-0003-1", "6,000,000"]),
    ("A mistyped destination: refused before any lookup", ["send", "--from", "110-0000-0001-5", "--to", "110-0000-0003-2", "1,000"]),
    ("A batch of four rows", ["batch", batchFile.path]),
    ("The same batch again: done rows are skipped", ["batch", batchFile.path]),
    ("Ada's transfers, two per page", ["list", "--limit", "2"]),
    ("Save Bob's account as a favourite", ["recipients", "add", "110-0000-0003-1", "--alias", "bob"]),
    (
        "Send to him by alias: at or above 1,000,000 KRW, a large-transfer notice too",
        ["send", "--from", "110-0000-0001-5", "--to", "@Bob", "1,000,000"]
    ),
    ("An alias Ada never saved: refused, nothing sent", ["send", "--from", "110-0000-0001-5", "--to", "@carol", "1,000"]),
    ("Favourites and recent recipients", ["recipients"]),
]
for (title, line) in steps {
    print(theme.paint("▸ " + title, .heading) + "\n" + theme.paint("$ moa transfer " + line.joined(separator: " "), .muted))
    let status = await CommandRunner.run(TransferCommand.self, arguments: line) { _, _ in [group] }
    print(theme.paint("exit \(status)", .muted) + "\n")
}
print(theme.paint("▸ The inbox notices published (Inbox is a fake here)", .heading))
for notice in ExampleInbox.publisher.notices {
    print("  [\(notice.kind.rawValue)] to \(notice.recipient): \(notice.title) — \(notice.body)")
}
