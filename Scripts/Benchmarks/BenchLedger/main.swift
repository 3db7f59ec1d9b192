// BenchLedger: the in-process half of Scripts/bench-ledger.
//
//     BenchLedger history DB_PATH ENTRIES REPETITIONS
//
// Creates DB_PATH with Account's schema, seeds ENTRIES ledger entries (half on one customer account,
// half on the cash account: ENTRIES/2 deposits of 1 KRW), then times one history page (20 entries)
// at the deep end — the oldest entries, reached with a cursor — through Account's real store,
// REPETITIONS times. Prints one JSON object: the median in microseconds, the account, the cursor id
// and the SQL the store runs, for Scripts/bench-ledger to replay in sqlite3 on the same file.
import AccountData
import AccountDomain
import AccountInterface
import Foundation
import GRDB
import Registry
import SharedKit
import Storage

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("BenchLedger: \(message)\n".utf8))
    exit(64)
}

let arguments = CommandLine.arguments
guard arguments.count == 5, arguments[1] == "history", let entries = Int(arguments[3]), let repetitions = Int(arguments[4]),
    entries >= 200, repetitions >= 1
else { fail("usage: BenchLedger history DB_PATH ENTRIES REPETITIONS") }

let url = URL(fileURLWithPath: arguments[2])
let database: AppDatabase
do {
    database = try AppDatabase.open(at: url, migrations: [AccountMigrations.all])
} catch {
    fail("cannot open \(url.path): \(error.message)")
}

let number: AccountNumber
do {
    number = try AccountNumber(prefix: "11000000001")
    let deposits = entries / 2
    try database.write { db in
        try db.execute(
            sql: """
                INSERT INTO account_accounts (id, number, name, kind, owner_id, currency, balance, opened_at)
                VALUES ('bench', ?, 'Bench', 'checking', 'bench-user', 'KRW', ?, '2026-01-01 00:00:00.000'),
                       ('cash-KRW', '000000000011', 'Cash (KRW)', 'cash', NULL, 'KRW', ?, '2026-01-01 00:00:00.000')
                """, arguments: [number.digits, deposits, -deposits])
        try db.execute(
            sql: """
                WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?)
                INSERT INTO account_entries (account_id, amount, currency, balance_after, kind, counterparty_id, reference, memo, created_at)
                SELECT CASE WHEN side = 0 THEN 'cash-KRW' ELSE 'bench' END, CASE WHEN side = 0 THEN -1 ELSE 1 END, 'KRW',
                       CASE WHEN side = 0 THEN -n ELSE n END, CASE WHEN side = 0 THEN 'withdrawal' ELSE 'deposit' END,
                       CASE WHEN side = 0 THEN 'bench' ELSE 'cash-KRW' END, NULL, 'seed ' || n, '2026-01-01 00:00:00.000'
                FROM seq, (SELECT 0 AS side UNION ALL SELECT 1) ORDER BY n, side
                """, arguments: [deposits])
    }
} catch {
    fail("seeding failed: \(error)")
}

let store: any AccountStore
do {
    store = try RegistryBuilder(modules: [ModuleOf.core(database: database), AccountDataModule()])
        .validate(root: AccountStoreKey.self).resolve()
} catch {
    fail("composition failed: \(error.message)")
}

do {
    // The deep end: a cursor just after the 40 oldest entries of the account.
    let before = try database.read { db in
        try Int64.fetchOne(db, sql: "SELECT id FROM account_entries WHERE account_id = 'bench' ORDER BY id LIMIT 1 OFFSET 40") ?? 0
    }
    var samples: [Double] = []
    var page: [LedgerEntry] = []
    for _ in 0..<repetitions {
        let start = ContinuousClock.now
        page = try await store.history(of: number, before: before, limit: 20)
        let elapsed = ContinuousClock.now - start
        samples.append(Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
    }
    guard page.count == 20, page.first?.memo == "seed 40" else {
        fail("unexpected page: \(page.count) entries, first \(page.first?.memo ?? "-")")
    }
    samples.sort()
    let count = try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM account_entries") ?? 0 }
    let result: [String: Any] = [
        "median_us": samples[samples.count / 2],
        "entries": count,
        "account_id": "bench",
        "number": number.digits,
        "before": before,
    ]
    let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
    print(String(decoding: json, as: UTF8.self))
} catch {
    fail("timing failed: \(error)")
}
