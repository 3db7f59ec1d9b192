import ArchiveDomain
import ArchiveInterface
import Networking
import Registry
import SharedKit
import Storage

/// What Archive's Data layer provides: the SQLite stores, the catalogue other features search
/// (`EventCatalogueKey`), the import sources (files, the live API), the importer and the export writer.
/// (The ticket use cases, which need the session from AuthInterface, come from ArchiveFeatureModule.)
public struct ArchiveDataModule: FeatureModule {
    public let name = "Archive"
    private let httpClient: (any HTTPClient)?

    /// - Parameter httpClient: for the live API; `nil`: URLSession against ``SeoulOpenAPISource/baseURL``.
    public init(httpClient: (any HTTPClient)? = nil) {
        self.httpClient = httpClient
    }

    /// The per-user stores on SQLite (requiring `DatabaseKey`): `TicketStoreKey`, `PreferenceStoreKey`
    /// and `ArchiveUserDataStoreKey` — what `moa-server` keeps of Archive (the catalogue stays on
    /// each machine).
    public static var sqliteStores: [Provider] {
        [
            .singleton(TicketStoreKey.self, requires: DatabaseKey.self) { SQLiteTicketStore(database: $0) },
            .singleton(PreferenceStoreKey.self, requires: DatabaseKey.self) { SQLitePreferenceStore(database: $0) },
            .singleton(ArchiveUserDataStoreKey.self) { SQLiteArchiveUserDataStore() },
        ]
    }

    public var providers: [Provider] {
        let httpClient = httpClient
        return Self.sqliteStores + [
            .singleton(CatalogueStoreKey.self, requires: DatabaseKey.self) { SQLiteCatalogueStore(database: $0) },
            .singleton(EventCatalogueKey.self, requires: CatalogueStoreKey.self) { StoreEventCatalogue(store: $0) },
            .singleton(CatalogueImporterKey.self, requires: CatalogueStoreKey.self, WallClockKey.self) {
                CatalogueImporter(store: $0, clock: $1)
            },
            .singleton(CatalogueSourcesKey.self) { ArchiveSources(client: httpClient) },
            .singleton(ExportWriterKey.self) { AtomicExportWriter() },
        ]
    }
}
