import Foundation
import PostgresNIO

/// One value of a row that ``PostgresQuery/rows(_:_:_:)`` binds.
public enum PostgresValue: Sendable, Equatable {
    case text(String?)
    case integer(Int64?)
    case date(Date?)
}

extension PostgresQuery {
    /// `prefix`, then `(…), (…)`: one parenthesised row of bound values per element of `rows`, then
    /// `suffix` — several rows written (`INSERT … VALUES`) or matched (`FROM (VALUES …) AS v(…)`)
    /// by one statement, in one round trip. The rows come in the order given; every value is a bind
    /// parameter, never SQL.
    public static func rows(_ prefix: String, _ rows: [[PostgresValue]], _ suffix: String) -> PostgresQuery {
        var query = StringInterpolation(literalCapacity: prefix.count + suffix.count + 8 * rows.count, interpolationCount: 0)
        query.appendLiteral(prefix)
        for (index, row) in rows.enumerated() {
            query.appendLiteral(index == 0 ? "(" : ", (")
            for (column, value) in row.enumerated() {
                if column > 0 { query.appendLiteral(", ") }
                switch value {
                case .text(let text): query.appendInterpolation(text)
                case .integer(let integer): query.appendInterpolation(integer)
                case .date(let date): query.appendInterpolation(date)
                }
            }
            query.appendLiteral(")")
        }
        query.appendLiteral(suffix)
        return PostgresQuery(stringInterpolation: query)
    }
}
