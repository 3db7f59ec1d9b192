import Registry
import SearchInterface

/// Search as other features' Examples and tests meet it, ready to register: `UserProfileLookupKey`
/// answered by ``lookup`` (the octocat, unless given other profiles).
public struct SearchFakes: FeatureModule {
    public let name = "Search (fakes)"
    public let lookup: FakeUserProfileLookup

    public init(lookup: FakeUserProfileLookup = FakeUserProfileLookup()) {
        self.lookup = lookup
    }

    public var providers: [Provider] { [.instance(UserProfileLookupKey.self, lookup)] }
}
