import AuthInterface
import Registry

/// Auth as other features' Examples and tests meet it, ready to register: `SessionProviderKey`
/// answered by ``session`` (Ada logged in, unless given another).
public struct AuthFakes: FeatureModule {
    public let name = "Auth (fakes)"
    public let session: FakeSessionProvider

    public init(session: FakeSessionProvider = FakeSessionProvider()) {
        self.session = session
    }

    public var providers: [Provider] { [.instance(SessionProviderKey.self, session)] }
}
