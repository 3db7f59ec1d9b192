import GRDB
import Storage

/// Account's schema: accounts (with hidden cash accounts, one or more per currency, the other side of
/// every deposit and withdrawal: see `PostingRules.cashBound`) and the ledger of signed entries; v2 makes
/// names and memos stored before they were checked safe to print.
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
            },
            // Names and memos stored before they were checked may hold control characters: each one is
            // replaced by its visible stand-in, so that an old row prints safely on any terminal.
            .init("v2-neutralize-control-characters") { db in
                try AccountStoredText.neutralize(table: "account_accounts", key: "id", column: "name", db)
                try AccountStoredText.neutralize(table: "account_entries", key: "id", column: "memo", db)
            },
        ])
}

/// Repairs text stored before names and memos refused control characters. The mapping is the design
/// system's (`TerminalSafe.neutralize`), which a Data target cannot import:
///
/// - C0 controls U+0000–U+001F become their Control Pictures U+2400–U+241F (ESC → ␛), but for the
///   line feed and the tab, which stay;
/// - DEL U+007F becomes ␡ (U+2421);
/// - C1 controls U+0080–U+009F and the bidirectional marks, embeddings, overrides and isolates
///   (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) become � (U+FFFD).
enum AccountStoredText {
    /// `text` with every such character replaced (itself when there is none).
    static func neutralized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsStandIn) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A, 0x09: result.append(scalar)
            case 0x00...0x1F: result.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
            case 0x7F: result.append("\u{2421}")
            case 0x80...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: result.append("\u{FFFD}")
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    static func needsStandIn(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Neutralizes `column` of every row of `table` (rows found by `key`). Only the rows that change are
    /// kept in memory.
    static func neutralize(table: String, key: String, column: String, _ db: Database) throws {
        var changes: [(key: DatabaseValue, text: String)] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT \(key) AS key, \(column) AS text FROM \(table) WHERE \(column) IS NOT NULL")
        while let row = try rows.next() {
            let text: String = row["text"]
            let safe = neutralized(text)
            if safe != text { changes.append((row["key"], safe)) }
        }
        for change in changes {
            try db.execute(sql: "UPDATE \(table) SET \(column) = ? WHERE \(key) = ?", arguments: [change.text, change.key])
        }
    }
}
