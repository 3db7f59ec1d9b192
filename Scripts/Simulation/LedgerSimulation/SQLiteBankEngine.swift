import AccountData
import Foundation
import GRDB
import InboxData
import Persistence
import Registry
import SettingsData
import SharedKit
import Storage
import TransferData

/// A seed's bank on a new SQLite file, composed as `moa` composes it: `ModuleOf.core` and the
/// features' Data modules providing their SQLite stores.
final class SQLiteBankEngine: BankEngine {
    private let database: AppDatabase

    init() throws {
        database = try AppDatabase.temporary(migrations: [
            AccountMigrations.all, TransferMigrations.all, SettingsMigrations.all, InboxMigrations.all,
        ])
        try database.write { db in try Self.installFaults(db) }
    }

    func storeModules(clock: any WallClock, extra: [Provider]) -> [any FeatureModule] {
        [ModuleOf.core(database: database, clock: clock, extra: extra)]
    }

    var dataModulesProvideStores: StoreEngine { .sqlite }

    func read(_ queries: [Query]) async throws -> [[CellRow]] {
        try database.read { db in
            try queries.map { query in
                // The same few queries run after every step: compiled once per connection.
                let statement = try db.cachedStatement(sql: query.sql)
                let rows = try Row.fetchAll(statement, arguments: StatementArguments(query.arguments.map(Self.value)))
                let columns = rows.first.map { Array($0.columnNames) } ?? []
                return rows.map { row in CellRow(columns: columns, ordered: row.databaseValues.map(Self.cell)) }
            }
        }
    }

    func execute(_ sql: String, _ arguments: [Cell]) async throws {
        let arguments = StatementArguments(arguments.map(Self.value))
        try await database.write { db in try db.execute(sql: sql, arguments: arguments) }
    }

    func adjustBalance(of digits: String, by delta: Int64, in transaction: any Transaction) throws {
        try SQLiteTransaction.open(transaction).execute(
            sql: "UPDATE account_accounts SET balance = balance + ? WHERE number = ?", arguments: [delta, digits])
    }

    func close() async {}

    /// The fault switch's counter, and on every written table a trigger that counts the step's row
    /// writes and aborts on the armed one (the statement and its whole transaction are rolled back).
    private static func installFaults(_ db: Database) throws {
        try db.execute(sql: SimulatedTables.faultTable)
        try db.execute(sql: "INSERT INTO sim_fault VALUES (0, 0)")
        for table in SimulatedTables.written {
            for event in ["INSERT", "UPDATE", "DELETE"] {
                try db.execute(
                    sql: """
                        CREATE TRIGGER sim_fault_\(table)_\(event.lowercased()) AFTER \(event) ON \(table)
                        WHEN (SELECT target FROM sim_fault) > 0
                        BEGIN
                            UPDATE sim_fault SET seen = seen + 1;
                            SELECT RAISE(ABORT, '\(InjectedFault.words)') FROM sim_fault WHERE seen = target;
                        END
                        """)
            }
        }
    }

    private static func value(_ cell: Cell) -> (any DatabaseValueConvertible)? {
        switch cell {
        case .null: nil
        case .int(let value): value
        case .double(let value): value
        case .text(let value): value
        case .bool(let value): value
        case .date(let value): value
        }
    }

    private static func cell(_ value: DatabaseValue) -> Cell {
        switch value.storage {
        case .null: .null
        case .int64(let value): .int(value)
        case .double(let value): .double(value)
        case .string(let value): .text(value)
        case .blob(let data): .text(data.base64EncodedString())
        }
    }
}
