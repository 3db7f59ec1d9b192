import Foundation
import Persistence
import PostgresStorage
import Registry
import SharedKit

/// The database a seed's bank lives on: the features' SQLite stores (their Data targets, as `moa`
/// composes them) or their PostgreSQL stores (their Postgres targets, as `moa-server --database
/// postgres://…` composes them), each seed on a new database of its own.
public enum SimulationEngine: Sendable, CustomStringConvertible {
    /// A new SQLite file (WAL, in a temporary folder) per seed.
    case sqlite
    /// A new schema per seed on this server, dropped after the seed.
    case postgres(PostgresLocation)

    public var description: String {
        switch self {
        case .sqlite: "SQLite"
        case .postgres: "PostgreSQL"
        }
    }

    /// The variable that names the PostgreSQL server, as for the store contracts and the server tests
    /// (`Scripts/postgres-cluster start` prints it).
    public static let postgresVariable = "MOA_TEST_POSTGRES_URL"

    /// PostgreSQL on the server `MOA_TEST_POSTGRES_URL` names in `environment`; `nil` when it is not set.
    public static func postgres(in environment: [String: String]) throws(UnusableEngine) -> SimulationEngine? {
        guard let text = environment[postgresVariable], !text.isEmpty else { return nil }
        do {
            return .postgres(try PostgresLocation(text, environment: environment))
        } catch {
            throw UnusableEngine(description: "\(postgresVariable) is not a PostgreSQL address: \(error.message)")
        }
    }
}

/// The engine asked for cannot be used, in one sentence.
public struct UnusableEngine: Error, CustomStringConvertible {
    public let description: String
}

/// One value of a row the invariant checks read, or of an argument they pass — the little both
/// engines need, so that every check is one SQL text run on either.
enum Cell: Sendable, Hashable, CustomStringConvertible {
    case null
    case int(Int64)
    case double(Double)
    case text(String)
    case bool(Bool)
    case date(Date)

    var int: Int64? {
        switch self {
        case .int(let value): value
        case .bool(let value): value ? 1 : 0
        default: nil
        }
    }

    var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// A truth value: a boolean on PostgreSQL, 0 or 1 on SQLite.
    var bool: Bool? {
        switch self {
        case .bool(let value): value
        case .int(let value): value != 0
        default: nil
        }
    }

    var description: String {
        switch self {
        case .null: "NULL"
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .text(let value): "'\(value)'"
        case .bool(let value): String(value)
        case .date(let value): value.timeIntervalSince1970.description
        }
    }
}

/// A row of cells, in column order (a fingerprint reads them so) and by column name.
struct CellRow: Sendable {
    let columns: [String]
    let ordered: [Cell]

    subscript(_ column: String) -> Cell {
        columns.firstIndex(of: column).map { ordered[$0] } ?? .null
    }
}

/// What the simulation needs of a database besides the stores: to read the tables the invariants
/// are checked on (SQL that both engines run alike), the fault switch's counter, and, for a
/// sabotaged posting, a balance changed inside the posting's own transaction. Each engine supplies
/// only how its SQL runs; every check is written once, in ``Runner``.
protocol BankEngine: Sendable {
    /// The registry modules of the stores and the unit of work, as the engine's composition root
    /// provides them (`extra`: the simulation's own keys, such as the session).
    func storeModules(clock: any WallClock, extra: [Provider]) -> [any FeatureModule]

    /// Whether the feature Data modules are to provide their SQLite stores themselves.
    var dataModulesProvideStores: StoreEngine { get }

    /// The rows of each query, all read in one transaction (one snapshot, one trip to the database).
    func read(_ queries: [Query]) async throws -> [[CellRow]]

    /// Runs `sql` (with `?` placeholders) for its effect, in a transaction of its own.
    func execute(_ sql: String, _ arguments: [Cell]) async throws

    /// Adds `delta` to the balance of the account numbered `digits`, inside `transaction` (the
    /// posting's): how a sabotaged rule cheats.
    func adjustBalance(of digits: String, by delta: Int64, in transaction: any Transaction) throws

    /// Lets go of the database (a PostgreSQL seed's schema is dropped).
    func close() async
}

extension BankEngine {
    /// The rows of `sql`, whose `?` placeholders take `arguments` in order.
    func rows(_ sql: String, _ arguments: [Cell] = []) async throws -> [CellRow] {
        try await read([Query(sql, arguments)]).first ?? []
    }

    /// The first row of `sql`, if any.
    func row(_ sql: String, _ arguments: [Cell] = []) async throws -> CellRow? {
        try await rows(sql, arguments).first
    }
}

/// SQL that both engines run alike, with `?` placeholders for its arguments.
struct Query: Sendable {
    let sql: String
    let arguments: [Cell]

    init(_ sql: String, _ arguments: [Cell] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}

/// The tables the use cases write, each with a fault trigger (``FaultSwitch``).
enum SimulatedTables {
    static let written = [
        "account_accounts", "account_entries", "transfer_transfers", "transfer_totals", "transfer_favourites",
        "transfer_recent_recipients", "inbox_notices", "settings_value",
    ]

    /// The table of the fault switch: the write to fail at (0: none) and the writes seen so far.
    static let faultTable = "CREATE TABLE sim_fault (target INTEGER NOT NULL, seen INTEGER NOT NULL)"
}
