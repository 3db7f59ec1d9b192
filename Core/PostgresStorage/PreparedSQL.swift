import PostgresNIO

/// A statement whose text is fixed (``PostgresNIO/PostgresPreparedStatement/sql``): PostgresNIO
/// prepares it once per connection, under its type's name, and afterwards sends only its values.
/// PostgreSQL then parses it once, and after a few runs plans it once too, where an unnamed
/// statement is parsed and planned anew each time — most of what a short statement costs it. A
/// statement that takes any number of rows binds them as one array per column
/// (``BoundColumn/unnest(_:from:)``), so that its text does not grow with them.
/// ``PostgresTransaction/rows(_:)-(Statement)`` and ``PostgresTransaction/send(_:then:)-(Statement,_)`` run it.
public protocol PreparedSQL: PostgresPreparedStatement where Row == PostgresRow {}

extension PreparedSQL {
    public func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }

    /// `moa_` and a 64-bit hash of the statement's text (FNV-1a), in hex: the name it is prepared
    /// under on each connection. Not the type's name, PostgresNIO's default: PostgreSQL keeps only
    /// the first 63 bytes of a name, and two statements of one store, whose type names begin alike,
    /// were refused as the same one ("already exists").
    public static var name: String { preparedName(sql) }
}

/// The name ``PreparedSQL`` prepares `sql` under: one per text, 20 bytes.
func preparedName(_ sql: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in sql.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return "moa_" + String(repeating: "0", count: 16 - hex.count) + hex
}

/// A task executor whose jobs run on one event loop: a task started from a database thread that
/// puts a statement on a connection runs where the connection's I/O does (no thread woken for it),
/// and, behind the writes queued on that loop before it, in order.
final class EventLoopExecutor: TaskExecutor, Sendable {
    private let loop: any EventLoop

    init(_ loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        loop.execute { job.runSynchronously(on: executor) }
    }
}

/// A ``PreparedSQL`` that takes rows, any number of them, as one array per column: its text says
/// where with ``BoundColumn/unnest(_:from:)`` of its ``columns`` (from `$1`).
public protocol RowsStatement: PreparedSQL {
    static var columns: [BoundColumn] { get }
    var rows: [[PostgresValue]] { get }
}

extension RowsStatement {
    public static var bindingDataTypes: [PostgresDataType] { PostgresBindings.arrayTypes(columns) }

    public func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: Self.columns.count)
        try bindings.appendColumns(rows, as: Self.columns)
        return bindings
    }
}

/// A ``PreparedSQL`` that takes two sets of rows, each as one array per column: the first set's
/// arrays from `$1` (``BoundColumn/unnest(_:from:)`` of ``firstColumns``), the second's right after
/// (`from: firstColumns.count + 1`) — two statements' inputs in one statement, one round trip.
public protocol TwoRowSetsStatement: PreparedSQL {
    static var firstColumns: [BoundColumn] { get }
    static var secondColumns: [BoundColumn] { get }
    var first: [[PostgresValue]] { get }
    var second: [[PostgresValue]] { get }
}

extension TwoRowSetsStatement {
    public static var bindingDataTypes: [PostgresDataType] { PostgresBindings.arrayTypes(firstColumns + secondColumns) }

    public func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: Self.firstColumns.count + Self.secondColumns.count)
        try bindings.appendColumns(first, as: Self.firstColumns)
        try bindings.appendColumns(second, as: Self.secondColumns)
        return bindings
    }
}

/// A ``PreparedSQL`` that takes a fixed number of rows, each value bound on its own
/// (``BoundColumn/row(_:from:)``, ``BoundColumn/values(_:rows:from:)``): the statement a lone
/// request runs, whose plan PostgreSQL keeps once it knows how many rows there are. Its
/// ``rowSets`` say, in the order of its parameters, which columns and how many rows; its
/// ``values`` hold the rows of each set, refused before they reach PostgreSQL if they are not that
/// many or not of those columns.
public protocol ValuesStatement: PreparedSQL {
    static var rowSets: [BoundRowSet] { get }
    /// The rows of each of ``rowSets``, in the same order.
    var values: [[[PostgresValue]]] { get }
}

/// Rows of the same columns bound as values, always `rows` of them: one set of a ``ValuesStatement``.
public struct BoundRowSet: Sendable, Equatable {
    public let columns: [BoundColumn]
    public let rows: Int

    public init(_ columns: [BoundColumn], rows: Int = 1) {
        self.columns = columns
        self.rows = rows
    }

    /// How many parameters the set takes.
    public var parameters: Int { columns.count * rows }

    /// The number of the first parameter of `sets[index]`, those of the sets before it taken.
    public static func firstParameter(of index: Int, in sets: [BoundRowSet]) -> Int {
        1 + sets.prefix(index).reduce(0) { $0 + $1.parameters }
    }
}

extension ValuesStatement {
    public static var bindingDataTypes: [PostgresDataType] {
        rowSets.flatMap { PostgresBindings.valueTypes($0.columns, rows: $0.rows) }
    }

    /// Whether ``values`` hold as many rows in each set as the statement takes (their widths and
    /// types are checked as they are bound).
    public var fits: Bool {
        values.count == Self.rowSets.count && zip(values, Self.rowSets).allSatisfy { $0.count == $1.rows }
    }

    public func makeBindings() throws -> PostgresBindings {
        let sets = Self.rowSets
        guard values.count == sets.count else {
            throw BoundColumnMismatch(description: "\(values.count) sets of rows for a statement of \(sets.count)")
        }
        var bindings = PostgresBindings(capacity: sets.reduce(0) { $0 + $1.parameters })
        for (set, rows) in zip(sets, values) {
            try bindings.appendRows(rows, as: set.columns, count: set.rows)
        }
        return bindings
    }
}

extension PostgresBindings {
    /// The bindings of a statement that takes one value (`$1`).
    public static func one<Value: PostgresDynamicTypeEncodable>(_ value: Value) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(value)
        return bindings
    }
}
