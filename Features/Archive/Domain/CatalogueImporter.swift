import ArchiveInterface
import Foundation
import SharedKit

/// Imports a catalogue: reads every row, cleans each (or says why not), drops duplicates, and
/// writes the rest in one transaction — all of it or none of it. Re-importing the same rows changes
/// nothing (ids are hashes of title, place and start date), and changed rows are updated in place.
public struct CatalogueImporter: Sendable {
    private let store: any CatalogueStore
    private let clock: any WallClock

    public init(store: any CatalogueStore, clock: any WallClock) {
        self.store = store
        self.clock = clock
    }

    public func run(_ source: any CatalogueSource, progress: @escaping @Sendable (ImportProgress) -> Void = { _ in }) async throws
        -> ImportReport
    {
        let rows = try await source.rows(progress: progress)
        var entries: [CatalogueEntry] = []
        var entryRows: [Int] = []
        var skipped: [SkippedRow] = []
        var firstRow: [String: Int] = [:]
        var keyOfID: [EventID: String] = [:]
        entries.reserveCapacity(rows.count)
        for (index, raw) in rows.enumerated() {
            let row = index + 1
            guard let raw else {
                skipped.append(SkippedRow(row: row, title: nil, reason: .notAnObject))
                continue
            }
            switch EventNormalizer.normalize(raw) {
            case .failure(let reason):
                let title = EventNormalizer.clean(raw.title)
                skipped.append(SkippedRow(row: row, title: title.isEmpty ? nil : title, reason: reason))
            case .success(let entry):
                if let first = firstRow[entry.naturalKey] {
                    skipped.append(SkippedRow(row: row, title: entry.event.title, reason: .duplicate(ofRow: first)))
                } else if let other = keyOfID[entry.event.id], other != entry.naturalKey {
                    skipped.append(SkippedRow(row: row, title: entry.event.title, reason: .idCollision(entry.event.id)))
                } else {
                    firstRow[entry.naturalKey] = row
                    keyOfID[entry.event.id] = entry.naturalKey
                    entries.append(entry)
                    entryRows.append(row)
                }
            }
        }

        let total = entries.count
        progress(.writing(done: 0, of: total))
        let outcomes = try await store.upsert(entries, at: clock.now()) { done in progress(.writing(done: done, of: total)) }
        var new = 0
        var updated = 0
        var unchanged = 0
        for (index, outcome) in outcomes.enumerated() {
            switch outcome {
            case .inserted: new += 1
            case .updated: updated += 1
            case .unchanged: unchanged += 1
            case .collision:
                let event = entries[index].event
                skipped.append(SkippedRow(row: entryRows[index], title: event.title, reason: .idCollision(event.id)))
            }
        }
        skipped.sort { $0.row < $1.row }
        return ImportReport(
            source: source.name, rows: rows.count, new: new, updated: updated, unchanged: unchanged, skipped: skipped,
            catalogueCount: try await store.count())
    }

    /// Checks `--from`/`--to` of a live import.
    public static func validateRows(from: Int, to: Int?) throws(ArchiveError) {
        guard from >= 1, to.map({ $0 >= from }) ?? true else { throw .invalidRowRange(from: from, to: to) }
    }
}
