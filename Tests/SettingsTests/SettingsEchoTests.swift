import SettingsDomain
import Testing

@Suite("Settings · what a refused value's error repeats")
struct SettingsEchoTests {
    @Test("the credentials of a URL are never repeated")
    func urlCredentialsAreHidden() {
        let error = SettingsError.invalidValue(.searchAPIBaseURL, value: "https://ada:hunter2@api.example.com/x y", origin: .argument)
        #expect(!error.message.contains("hunter2") && !error.message.contains("ada:"), "\(error.message)")
        #expect(error.message.contains("https://•••@api.example.com"), "\(error.message)")
    }

    @Test("a long value is cut, so an error stays one readable sentence")
    func longValuesAreCut() {
        let error = SettingsError.invalidValue(.displayPageSize, value: String(repeating: "9", count: 5_000), origin: .argument)
        #expect(error.message.count < 200, "\(error.message.count) characters")
        #expect(error.message.contains("…"))
    }
}
