import ArchiveInterface
import Foundation

/// `EventCatalogue` (what Search sees) over the store.
public struct StoreEventCatalogue: EventCatalogue {
    private let store: any CatalogueStore

    public init(store: any CatalogueStore) {
        self.store = store
    }

    public func search(_ query: EventQuery) async throws -> EventPage { try await store.search(query) }
    public func event(id: EventID) async throws -> CulturalEvent? { try await store.event(id: id) }
    public func count() async throws -> Int { try await store.count() }
}
