import Foundation
import Testing

@Suite("moa end to end")
struct EndToEndTests {
    @Test func versionPrintsTheVersion() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let result = try moa.run(["--version"])
        #expect(result.status == 0)
        #expect(result.out == "0.1.0\n")
    }

    @Test func doctorListsEveryProviderAndExitsZero() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let result = try moa.run(["doctor"])
        #expect(result.status == 0)
        for key in [
            "MoaHomeKey", "DatabaseKey", "WallClockKey", "AuthStoreKey", "SessionProviderKey", "AuthCommandsKey", "AppRootKey",
        ] {
            #expect(result.out.contains(key))
        }
        #expect(result.out.contains("Composition OK"))
        #expect(result.out.contains(moa.home.appendingPathComponent("moa.sqlite").path))
        #expect(!result.out.contains("\u{1B}["), "no colour when stdout is not a terminal")
    }

    @Test func doctorWithoutAProviderNamesItAndExitsSeventy() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let result = try moa.run(["doctor", "--without", "SessionManagerKey"])
        #expect(result.status == 70)
        #expect(
            result.out.contains("missing SessionManagerKey (SessionManager): required by Auth to make AuthCommandsKey, expected from Auth"))
        #expect(result.err.contains("The composition has"))
    }

    @Test func doctorJSONIsParseableAndStable() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let result = try moa.run(["--json", "doctor"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        #expect(object?["version"] as? String == "0.1.0")
        #expect((object?["problems"] as? [Any])?.isEmpty == true)
        let providers = object?["providers"] as? [[String: Any]] ?? []
        #expect(providers.contains { $0["key"] as? String == "DatabaseKey" && $0["provided_by"] as? String == "Core" })
    }

    @Test func theDatabaseAndHomeAreOwnerOnly() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        try moa.run(["doctor"])
        let database = try FileManager.default.attributesOfItem(atPath: moa.home.appendingPathComponent("moa.sqlite").path)
        #expect((database[.posixPermissions] as? Int) == 0o600)
    }

    @Test func anUnknownCommandIsAUsageErrorWithExit64() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let result = try moa.run(["bogus"])
        #expect(result.status == 64)
        #expect(result.err.contains("Unexpected argument 'bogus'"))
        #expect(result.out.isEmpty)
    }

    @Test func anUnusableHomeIsAnIOErrorNamingThePath() throws {
        let moa = try MoaProcess()
        defer { moa.remove() }
        let result = try moa.run(["doctor", "--home", "/proc/moa-cannot-be-here"])
        #expect(result.status == 74)
        #expect(result.err.contains("/proc/moa-cannot-be-here"))
    }
}
