import Foundation
import PostgresNIO

/// One value of a bound row: in one array per column (``BoundColumn/unnest(_:from:)``), or as a
/// value of its own (``BoundColumn/row(_:from:)``, ``BoundColumn/values(_:rows:from:)``).
public enum PostgresValue: Sendable, Equatable {
    case text(String?)
    case integer(Int64?)
    case date(Date?)
}

/// The type of one column of bound rows: as arrays (``PostgresBindings/appendColumns(_:as:)``) or
/// as values (`PostgresBindings.appendRow(_:as:)`, `PostgresBindings.appendRows(_:as:count:)`).
public enum BoundColumn: Sendable, Equatable {
    case text
    case integer
    case date

    var sqlArrayType: String {
        switch self {
        case .text: "text[]"
        case .integer: "int8[]"
        case .date: "timestamptz[]"
        }
    }

    var arrayType: PostgresDataType {
        switch self {
        case .text: .textArray
        case .integer: .int8Array
        case .date: .timestamptzArray
        }
    }

    var sqlType: String {
        switch self {
        case .text: "text"
        case .integer: "int8"
        case .date: "timestamptz"
        }
    }

    var elementType: PostgresDataType {
        switch self {
        case .text: .text
        case .integer: .int8
        case .date: .timestamptz
        }
    }

    /// `SELECT * FROM unnest($first::text[], $first+1::int8[], …)`: rows bound column by column, as
    /// one array per column — written (`INSERT … SELECT`) or matched (`FROM (…) AS v(…)`) by one
    /// statement whose text is the same however many rows it takes, so that PostgreSQL parses and
    /// plans it once per connection (``PreparedSQL``). The rows come in the order given.
    public static func unnest(_ columns: [BoundColumn], from first: Int = 1) -> String {
        let arrays = columns.enumerated().map { index, column in "$\(first + index)::\(column.sqlArrayType)" }
        return "SELECT * FROM unnest(\(arrays.joined(separator: ", ")))"
    }
}

extension BoundColumn {
    /// `($first::text, $first+1::int8, …)`: **one** row bound as one value per column
    /// (`PostgresBindings.appendRow(_:as:)`) — compared with `= (…)` or read with `VALUES (…)` —,
    /// where ``unnest(_:from:)`` binds any number as arrays.
    /// For the statement a lone request runs: PostgreSQL plans a prepared statement afresh at each
    /// run while a plan made for the values at hand looks cheaper than one made for any — as it
    /// does when the values are arrays, whose length it then sees — but for a row of single values
    /// a plan made for any costs no more than the average of those made for the values at hand
    /// (planning included), so after five runs it keeps one plan and stops planning.
    public static func row(_ columns: [BoundColumn], from first: Int = 1) -> String {
        "(" + columns.enumerated().map { index, column in "$\(first + index)::\(column.sqlType)" }.joined(separator: ", ") + ")"
    }

    /// `VALUES ($first::text, …), ($first+n::text, …), …`: `count` rows bound as one value per
    /// column each (`PostgresBindings.appendRows(_:as:count:)`), for a statement whose rows are always
    /// that many — its plan then knows how many, where an array's length is unknown to a plan made
    /// for any values (``row(_:from:)`` says why that matters).
    public static func values(_ columns: [BoundColumn], rows count: Int, from first: Int = 1) -> String {
        "VALUES " + (0..<count).map { row(columns, from: first + $0 * columns.count) }.joined(separator: ", ")
    }
}

/// What a row bound as columns did not fit: a value of another type than its column's, or a row of
/// another width (a bug of ours: the statement's text says what it takes).
public struct BoundColumnMismatch: Error, CustomStringConvertible {
    public let description: String
}

extension PostgresBindings {
    /// Binds `rows` as one array per column (``BoundColumn/unnest(_:from:)``), `NULL` elements
    /// where a value is `nil`.
    public mutating func appendColumns(_ rows: [[PostgresValue]], as columns: [BoundColumn]) throws {
        for (index, column) in columns.enumerated() {
            var values: [PostgresValue] = []
            values.reserveCapacity(rows.count)
            for row in rows {
                guard row.count == columns.count else {
                    throw BoundColumnMismatch(description: "a row of \(row.count) values for \(columns.count) columns")
                }
                values.append(row[index])
            }
            try append(ColumnArray(column: column, values: values))
        }
    }

    /// The parameter types of `columns` bound as arrays: a ``PreparedSQL``'s `bindingDataTypes`.
    public static func arrayTypes(_ columns: [BoundColumn]) -> [PostgresDataType] {
        columns.map(\.arrayType)
    }

    /// Binds one row, a value per column (``BoundColumn/row(_:from:)``), `NULL` where a value is `nil`.
    mutating func appendRow(_ row: [PostgresValue], as columns: [BoundColumn]) throws {
        guard row.count == columns.count else {
            throw BoundColumnMismatch(description: "a row of \(row.count) values for \(columns.count) columns")
        }
        for (column, value) in zip(columns, row) {
            if let encodable = try value.encodable(as: column) { append(encodable) } else { appendNull() }
        }
    }

    /// Binds `rows`, each a value per column (``BoundColumn/values(_:rows:from:)``): exactly
    /// `count` of them, as many as the statement's text holds.
    mutating func appendRows(_ rows: [[PostgresValue]], as columns: [BoundColumn], count: Int) throws {
        guard rows.count == count else {
            throw BoundColumnMismatch(description: "\(rows.count) rows for a statement of \(count)")
        }
        for row in rows { try appendRow(row, as: columns) }
    }

    /// The parameter types of `columns` bound as one row.
    static func valueTypes(_ columns: [BoundColumn]) -> [PostgresDataType] {
        columns.map(\.elementType)
    }

    /// The parameter types of `count` rows of `columns` bound as values (``BoundColumn/values(_:rows:from:)``).
    static func valueTypes(_ columns: [BoundColumn], rows count: Int) -> [PostgresDataType] {
        (0..<count).flatMap { _ in valueTypes(columns) }
    }
}

/// One column as a one-dimensional PostgreSQL array in the binary format (PostgreSQL's
/// `array_send`): PostgresNIO's own arrays have no `NULL` elements.
private struct ColumnArray: PostgresThrowingDynamicTypeEncodable {
    let column: BoundColumn
    let values: [PostgresValue]

    var psqlType: PostgresDataType { column.arrayType }
    var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) throws {
        let hasNull = values.contains { $0.isNull }
        buffer.writeInteger(values.isEmpty ? 0 : 1, as: Int32.self) // dimensions
        buffer.writeInteger(hasNull ? 1 : 0, as: Int32.self)
        buffer.writeInteger(column.elementType.rawValue)
        guard !values.isEmpty else { return }
        buffer.writeInteger(Int32(values.count)) // the dimension's length
        buffer.writeInteger(1, as: Int32.self) // its lower bound
        for value in values {
            let lengthAt = buffer.writerIndex
            buffer.writeInteger(-1, as: Int32.self)
            guard let encodable = try value.encodable(as: column) else { continue }
            encodable.encode(into: &buffer, context: context)
            buffer.setInteger(Int32(buffer.writerIndex - lengthAt - 4), at: lengthAt)
        }
    }
}

extension PostgresValue {
    /// The value to encode in a column of `column`'s type, `nil` for `NULL`; a value of another
    /// type is refused (a bug of ours: the statement's text says what each column takes).
    fileprivate func encodable(as column: BoundColumn) throws -> (any PostgresNonThrowingEncodable)? {
        switch (column, self) {
        case (.text, .text(let text)): text
        case (.integer, .integer(let integer)): integer
        case (.date, .date(let date)): date
        default: throw BoundColumnMismatch(description: "a value \(self) in a column of \(column)")
        }
    }

    fileprivate var isNull: Bool {
        switch self {
        case .text(let value): value == nil
        case .integer(let value): value == nil
        case .date(let value): value == nil
        }
    }
}
