import ArchiveInterface
import Registry
import SharedKit

/// Archive as other features' Examples and tests meet it, ready to register: `EventCatalogueKey`
/// answered by ``catalogue`` and `EventArchivingKey` by ``archiving``, which archives into it.
public struct ArchiveFakes: FeatureModule {
    public let name = "Archive (fakes)"
    public let catalogue: FakeEventCatalogue
    public let archiving: FakeEventArchiving

    /// - Parameter today: the day `archiving` calls today.
    public init(catalogue: FakeEventCatalogue = FakeEventCatalogue(), today: Day) {
        self.catalogue = catalogue
        self.archiving = FakeEventArchiving(catalogue: catalogue, today: today)
    }

    public var providers: [Provider] {
        [.instance(EventCatalogueKey.self, catalogue), .instance(EventArchivingKey.self, archiving)]
    }
}
