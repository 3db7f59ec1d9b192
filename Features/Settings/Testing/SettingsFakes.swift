import Registry
import SettingsInterface

/// Settings as other features' Examples and tests meet it, ready to register: `SettingsReaderKey`
/// answered by ``reader`` (the defaults, unless given other values).
public struct SettingsFakes: FeatureModule {
    public let name = "Settings (fakes)"
    public let reader: FakeSettingsReader

    public init(reader: FakeSettingsReader = FakeSettingsReader()) {
        self.reader = reader
    }

    public var providers: [Provider] { [.instance(SettingsReaderKey.self, reader)] }
}
