import Foundation
import PostgresNIO
import PostgresStorage
import Testing

/// A statement that binds a fixed number of rows value by value (a lone transfer's reads and
/// writes): its parameters line up with its text, and rows of another number, width or type are
/// refused before anything reaches PostgreSQL — never bound short or shifted onto another column.
@Suite("ValuesStatement: rows bound as values")
struct ValuesStatementTests {
    /// Two rows of (text, int8), then one of (timestamptz).
    struct Sample: ValuesStatement {
        static let rowSets = [BoundRowSet([.text, .integer], rows: 2), BoundRowSet([.date])]
        static let sql = """
            SELECT * FROM (\(BoundColumn.values(rowSets[0].columns, rows: 2))) AS v(a, b), \
            (VALUES \(BoundColumn.row(rowSets[1].columns, from: BoundRowSet.firstParameter(of: 1, in: rowSets)))) AS w(c)
            """
        let values: [[[PostgresValue]]]
    }

    static let at = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("its text, its parameter types and its bindings agree: five values, in the order of the sets")
    func theTextTheTypesAndTheBindingsAgree() throws {
        #expect(Sample.sql.contains("VALUES ($1::text, $2::int8), ($3::text, $4::int8)"), "\(Sample.sql)")
        #expect(Sample.sql.hasSuffix("(VALUES ($5::timestamptz)) AS w(c)"), "\(Sample.sql)")
        #expect(Sample.bindingDataTypes == [.text, .int8, .text, .int8, .timestamptz])
        let bindings = try Sample(values: [[[.text("a"), .integer(1)], [.text(nil), .integer(2)]], [[.date(Self.at)]]]).makeBindings()
        #expect(bindings.count == 5)
        #expect(Sample(values: [[[.text("a"), .integer(1)], [.text(nil), .integer(2)]], [[.date(Self.at)]]]).fits)
    }

    @Test(
        "rows of another number or width, or a set missing, are refused",
        arguments: [
            ("one row of two", [[[PostgresValue.text("a"), .integer(1)]], [[.date(at)]]], "1 rows for a statement of 2"),
            (
                "three rows of two",
                [[[.text("a"), .integer(1)], [.text("b"), .integer(2)], [.text("c"), .integer(3)]], [[.date(at)]]],
                "3 rows for a statement of 2"
            ),
            ("a row too narrow", [[[.text("a")], [.text("b"), .integer(2)]], [[.date(at)]]], "a row of 1 values for 2 columns"),
            ("a set missing", [[[.text("a"), .integer(1)], [.text("b"), .integer(2)]]], "1 sets of rows for a statement of 2"),
        ] as [(String, [[[PostgresValue]]], String)])
    func rowsThatDoNotFitAreRefused(case name: String, values: [[[PostgresValue]]], message: String) {
        #expect(Sample(values: values).fits == (name == "a row too narrow"), "\(name)")
        #expect(throws: BoundColumnMismatch.self, "\(name)") { try Sample(values: values).makeBindings() }
        do {
            _ = try Sample(values: values).makeBindings()
        } catch {
            #expect("\(error)".contains(message), "\(name): \(error)")
        }
    }

    @Test("a value of another type than its column's is refused")
    func aValueOfAnotherTypeIsRefused() {
        #expect(throws: BoundColumnMismatch.self) {
            try Sample(values: [[[.text("a"), .text("1")], [.text("b"), .integer(2)]], [[.date(Self.at)]]]).makeBindings()
        }
    }
}
