import InboxInterface
import Registry

/// Inbox as other features' Examples and tests meet it, ready to register: `InboxPublisherKey`
/// answered by ``publisher``, which keeps what was published for the test to read.
public struct InboxFakes: FeatureModule {
    public let name = "Inbox (fakes)"
    public let publisher: FakeInboxPublisher

    public init(publisher: FakeInboxPublisher = FakeInboxPublisher()) {
        self.publisher = publisher
    }

    public var providers: [Provider] { [.instance(InboxPublisherKey.self, publisher)] }
}
