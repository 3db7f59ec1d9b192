import ArchiveInterface
import Foundation
import Registry

/// Where an import reads its rows from (a file, the live API).
public protocol CatalogueSource: Sendable {
    /// Names the source in reports: "events.json", "Seoul Open Data API, rows 1–3000".
    var name: String { get }
    /// Every row, in order; `nil` for an element of the row list that is not an object.
    /// Throws ``ArchiveImportError`` when the source cannot be read at all (nothing is imported then).
    func rows(progress: @escaping @Sendable (ImportProgress) -> Void) async throws -> [RawEvent?]
}

/// Makes sources (ArchiveData knows files and HTTP).
public protocol CatalogueSources: Sendable {
    func file(path: String) -> any CatalogueSource
    /// The live `culturalEventInfo` API, rows `from`…`to` (1-based, inclusive; `to` nil: to the last).
    func seoulOpenAPI(key: String, from: Int, to: Int?) -> any CatalogueSource
    /// A small catalogue shipped with moa (real Seoul places, Hangul, a duplicate, a row without a
    /// title): to try the archive — and the app tour — without a download or an API key.
    func sample() -> any CatalogueSource
}

public enum CatalogueSourcesKey: ServiceKey { public typealias Service = any CatalogueSources }
