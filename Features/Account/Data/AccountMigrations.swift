import GRDB
import Storage

/// Account's schema: accounts (with one hidden cash account per currency, the other side of every
/// deposit and withdrawal) and the ledger of signed entries.
public enum AccountMigrations {
    public static let all = MigrationSet(
        feature: "Account",
        steps: [
            .init("v1-create-ledger") { db in
                try db.create(table: "account_accounts") { table in
                    table.primaryKey("id", .text)
                    table.column("number", .text).notNull().unique()
                    table.column("name", .text).notNull()
                    table.column("kind", .text).notNull()
                    table.column("owner_id", .text).indexed() // NULL for cash accounts
                    table.column("currency", .text).notNull()
                    table.column("balance", .integer).notNull().defaults(to: 0)
                    table.column("opened_at", .datetime).notNull()
                    table.column("closed_at", .datetime)
                }
                try db.create(table: "account_entries") { table in
                    table.autoIncrementedPrimaryKey("id")
                    table.column("account_id", .text).notNull().references("account_accounts")
                    table.column("amount", .integer).notNull() // signed minor units
                    table.column("currency", .text).notNull()
                    table.column("balance_after", .integer).notNull()
                    table.column("kind", .text).notNull()
                    table.column("counterparty_id", .text).references("account_accounts")
                    table.column("reference", .text)
                    table.column("memo", .text)
                    table.column("created_at", .datetime).notNull()
                }
                try db.create(index: "account_entries_by_account", on: "account_entries", columns: ["account_id", "id"])
                try db.create(index: "account_entries_by_reference", on: "account_entries", columns: ["reference"])
            }
        ])
}
