import Registry

/// The ticket use cases, for Archive's commands (and, as `EventArchivingKey`, for other features).
public enum ArchiveServiceKey: ServiceKey { public typealias Service = ArchiveService }
public enum CatalogueImporterKey: ServiceKey { public typealias Service = CatalogueImporter }
