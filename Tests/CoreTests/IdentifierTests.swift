import Foundation
import SharedKit
import Testing

/// Generated identifiers (``Identifier/random()``): version-4 UUIDs, lowercase, never repeated,
/// every random digit varying.
@Suite("Identifiers")
struct IdentifierTests {
    private enum Thing {}

    @Test func aRandomIdentifierIsALowercaseVersion4UUIDAndNeverRepeats() throws {
        let made = (0..<10_000).map { _ in Identifier<Thing>.random().rawValue }
        #expect(Set(made).count == made.count)
        for id in made.prefix(500) {
            let uuid = try #require(UUID(uuidString: id), "\(id)")
            #expect(uuid.uuidString.lowercased() == id)
            let digits = Array(id.replacingOccurrences(of: "-", with: ""))
            #expect(digits[12] == "4", "version 4: \(id)")
            #expect("89ab".contains(digits[16]), "RFC 9562 variant: \(id)")
        }
        // Every digit but the version's takes several values over the sample: none is stuck.
        let columns = (0..<32).map { column in Set(made.prefix(200).map { Array($0.replacingOccurrences(of: "-", with: ""))[column] }) }
        for (column, values) in columns.enumerated() where column != 12 {
            #expect(values.count >= (column == 16 ? 4 : 10), "digit \(column) took only \(values.sorted())")
        }
    }
}
