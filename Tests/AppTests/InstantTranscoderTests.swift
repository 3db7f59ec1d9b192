import APIWire
import Foundation
import Testing

/// The API clients' dates (``InstantTranscoder``): what moa-server writes is read back to the
/// second, an offset names its instant, and anything else is refused as undecodable (never a date
/// made up).
@Suite("API dates")
struct InstantTranscoderTests {
    let transcoder = InstantTranscoder()
    let instant = Date(timeIntervalSince1970: 1_795_435_209) // 2026-11-23T12:00:09Z

    @Test func whatTheServerWritesIsReadAndWrittenTheSame() throws {
        #expect(try transcoder.decode("2026-11-23T12:00:09Z") == instant)
        #expect(try transcoder.encode(instant) == "2026-11-23T12:00:09Z")
        #expect(try transcoder.decode(try transcoder.encode(instant.addingTimeInterval(0.75))) == instant)
    }

    /// What the server writes is what Foundation's `ISO8601DateFormatter` (the OpenAPI runtime's
    /// default, which it wrote with before) writes, to the byte: a fraction rounds to the
    /// millisecond first, so x.9996 s is the next second, as SQLite keeps it.
    @Test func itWritesWhatFoundationsFormatterWrote() throws {
        let formatter = ISO8601DateFormatter()
        var state: UInt64 = 26
        var dates = (0..<20_000).map { _ -> Date in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Date(timeIntervalSince1970: Double(state % 4_000_000_000_000_000) / 1_000_000) // 1970–2096, to the microsecond
        }
        dates += [0.9994, 0.9995, 0.9996, 0.0004, -0.0004, -0.0006, -0.9996].map { Date(timeIntervalSince1970: 1_795_435_209 + $0) }
        let differing = dates.filter { (try? transcoder.encode($0)) != formatter.string(from: $0) }.prefix(5)
            .map { "\($0.timeIntervalSince1970): \((try? transcoder.encode($0)) ?? "nil") ≠ \(formatter.string(from: $0))" }
        let count = differing.count
        #expect(count == 0, "\(differing)")
        #expect(try transcoder.encode(Date(timeIntervalSince1970: 1_795_435_208.9996)) == "2026-11-23T12:00:09Z")
    }

    @Test func anOffsetNamesItsInstant() throws {
        #expect(try transcoder.decode("2026-11-23T21:00:09+09:00") == instant)
        #expect(try transcoder.decode("2026-11-23T07:30:09-04:30") == instant)
        #expect(try transcoder.decode("2026-11-24T00:00:09+11:59") == instant.addingTimeInterval(60))
        #expect(try transcoder.decode("2028-02-29T00:00:00Z") == Date(timeIntervalSince1970: 1_835_395_200)) // a leap day
    }

    @Test(arguments: [
        "", "yesterday", "2026-11-23", "2026-13-23T12:00:09Z", "2026-11-23T12:00:09Z\u{1B}[2J", "2026-11-23T12:00:09",
        "2026-11-23T12:00:09+0900", " 2026-11-23T12:00:09Z", "2026-11-23T25:00:00Z", "2026-11-23T12:60:00Z", "2026-11-23T12:00:61Z",
        "2026-02-31T00:00:00Z", "2026-02-29T00:00:00Z", "2026-11-23T12:00:09+10:99", "2026-11-23T12:00:09+24:00", "2026-00-10T00:00:00Z",
        "9" + String(repeating: "9", count: 100),
    ])
    func anythingElseIsRefused(_ text: String) {
        #expect(throws: DecodingError.self) { try transcoder.decode(text) }
    }
}
