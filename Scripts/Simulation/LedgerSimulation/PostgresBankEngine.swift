import AccountPostgres
import Foundation
import InboxPostgres
import Logging
import Persistence
import PostgresNIO
import PostgresStorage
import Registry
import SettingsPostgres
import SharedKit
import TransferPostgres

/// A seed's bank on PostgreSQL, composed as `moa-server --database postgres://…` composes it: the
/// features' Postgres stores and ``PostgresAppDatabase`` as the unit of work, in a new schema of its
/// own on the given server (dropped by ``close()``).
final class PostgresBankEngine: BankEngine {
    private let database: PostgresAppDatabase
    private let schema: String
    private let pool: Task<Void, Never>

    /// The features' schemas, as `moa-server` applies them, then the fault switch.
    static let migrations = [
        AccountPostgresStores.migrations, TransferPostgresStores.migrations, SettingsPostgresStores.migrations,
        InboxPostgresStores.migrations, faults,
    ]

    private init(database: PostgresAppDatabase, schema: String, pool: Task<Void, Never>) {
        self.database = database
        self.schema = schema
        self.pool = pool
    }

    /// A new, migrated schema on `location`.
    static func make(_ location: PostgresLocation) async throws -> PostgresBankEngine {
        let schema = "sim_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let quiet = Logger(label: "moa.simulate.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        let database = PostgresAppDatabase(location: location, logger: quiet, maximumConnections: 2, schema: schema)
        let engine = PostgresBankEngine(database: database, schema: schema, pool: Task { await database.run() })
        do {
            try await database.createSchema(schema)
            try await database.migrate(migrations)
        } catch {
            await engine.close()
            throw error
        }
        return engine
    }

    func storeModules(clock: any WallClock, extra: [Provider]) -> [any FeatureModule] {
        [
            ModuleOf("Core", [.instance(WallClockKey.self, clock), .instance(UnitOfWorkKey.self, database)] + extra),
            ModuleOf(
                "PostgreSQL",
                AccountPostgresStores.providers(database) + TransferPostgresStores.providers(database)
                    + SettingsPostgresStores.providers(database) + InboxPostgresStores.providers(database)),
        ]
    }

    var dataModulesProvideStores: StoreEngine { .providedByRoot }

    func read(_ queries: [Query]) async throws -> [[CellRow]] {
        let queries = try queries.map { try Self.query($0.sql, $0.arguments) }
        return try await database.read { transaction in
            try queries.map { query in
                try transaction.rows(query).map { row in
                    var columns: [String] = []
                    var ordered: [Cell] = []
                    for cell in row {
                        columns.append(cell.columnName)
                        ordered.append(try Self.cell(cell))
                    }
                    return CellRow(columns: columns, ordered: ordered)
                }
            }
        }
    }

    func execute(_ sql: String, _ arguments: [Cell]) async throws {
        let query = try Self.query(sql, arguments)
        try await database.write { try $0.execute(query) }
    }

    func adjustBalance(of digits: String, by delta: Int64, in transaction: any Transaction) throws {
        try PostgresTransaction.open(transaction).execute(
            "UPDATE account_accounts SET balance = balance + \(delta) WHERE number = \(digits)")
    }

    func close() async {
        try? await database.dropSchema(schema)
        pool.cancel()
    }

    /// The fault switch on PostgreSQL: its counter, and on every written table a row trigger that
    /// counts the step's row writes and raises on the armed one (the statement's transaction then
    /// fails, and its unit of work rolls it back), as SQLite's triggers do.
    private static let faults = PostgresMigrationSet(
        feature: "Simulation",
        steps: [
            .init(
                "v1-fault-switch",
                [
                    SimulatedTables.faultTable,
                    "INSERT INTO sim_fault VALUES (0, 0)",
                    """
                    CREATE FUNCTION sim_fault_count() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        UPDATE sim_fault SET seen = seen + 1 WHERE target > 0;
                        IF EXISTS (SELECT 1 FROM sim_fault WHERE target > 0 AND seen = target) THEN
                            RAISE EXCEPTION '\(InjectedFault.words)';
                        END IF;
                        RETURN NULL;
                    END
                    $$
                    """,
                ]
                    + SimulatedTables.written.map { table in
                        """
                        CREATE TRIGGER sim_fault_\(table) AFTER INSERT OR UPDATE OR DELETE ON \(table)
                        FOR EACH ROW EXECUTE FUNCTION sim_fault_count()
                        """
                    })
        ])

    /// `sql` with its `?` placeholders numbered as PostgreSQL wants them (`$1`, `$2`, …) and
    /// `arguments` bound to them. The checks' SQL holds no `?` inside a literal.
    static func query(_ sql: String, _ arguments: [Cell]) throws -> PostgresQuery {
        var numbered = ""
        var count = 0
        for character in sql {
            if character == "?" {
                count += 1
                numbered += "$\(count)"
            } else {
                numbered.append(character)
            }
        }
        guard count == arguments.count else {
            throw PostgresFailure.other(state: nil, message: "\(count) placeholders for \(arguments.count) arguments")
        }
        var binds = PostgresBindings()
        for argument in arguments {
            switch argument {
            case .null: binds.appendNull()
            case .int(let value): binds.append(value)
            case .double(let value): binds.append(value)
            case .text(let value): binds.append(value)
            case .bool(let value): binds.append(value)
            case .date(let value): binds.append(value)
            }
        }
        return PostgresQuery(unsafeSQL: numbered, binds: binds)
    }

    private static func cell(_ cell: PostgresCell) throws -> Cell {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2: return .int(Int64(try cell.decode(Int16.self)))
        case .int4: return .int(Int64(try cell.decode(Int32.self)))
        case .int8: return .int(try cell.decode(Int64.self))
        case .bool: return .bool(try cell.decode(Bool.self))
        case .float4, .float8: return .double(try cell.decode(Double.self))
        case .timestamptz, .timestamp: return .date(try cell.decode(Date.self))
        default: return .text(try cell.decode(String.self))
        }
    }
}
