import Foundation
import Money
import SettingsDomain
import Testing

/// What a script reads of a setting, decoded back as `moa` decodes a server's answer: each kind of
/// value to its own case, and an ambiguous or broken one refused with the error that names it.
@Suite("Settings · the JSON of a setting")
struct SettingRecordTests {
    private func value(_ json: String) throws -> SettingRecord.Value {
        try JSONDecoder().decode([SettingRecord.Value].self, from: Data("[\(json)]".utf8))[0]
    }

    @Test func eachKindOfValueDecodesToItsOwnCase() throws {
        #expect(try value("null") == .null)
        #expect(try value("25") == .integer(25))
        #expect(try value(#""ko""#) == .text("ko"))
        #expect(try value(#"{"set": true}"#) == .secretIsSet(true))
        #expect(try value(#"{"minor_units": 500000, "currency": "KRW"}"#) == .money(Money(minorUnits: 500_000, currency: .krw)))
    }

    @Test func aSecretFlagBesideOtherKeysIsNotASecretAndBrokenMoneySaysWhy() throws {
        #expect(throws: DecodingError.self) { try value(#"{"minor_units": 1, "currency": "XYZ", "set": true}"#) }
        #expect(throws: DecodingError.self) { try value(#"{"currency": "KRW"}"#) }
        #expect(throws: DecodingError.self) { try value("true") }
        #expect(throws: DecodingError.self) { try value("9223372036854775808") }
    }

    @Test func aRecordRoundTripsWithItsKeys() throws {
        let record = SettingRecord(
            key: "transfer.daily-limit", value: .money(Money(minorUnits: 1, currency: .krw)), default: .null, source: "user",
            description: "d")
        let json = try JSONEncoder().encode(record)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(Set(object.keys) == ["key", "value", "default", "source", "description"])
        #expect(try JSONDecoder().decode(SettingRecord.self, from: json) == record)
    }
}
