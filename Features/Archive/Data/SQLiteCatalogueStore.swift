import ArchiveDomain
import ArchiveInterface
import Foundation
import GRDB
import SharedKit
import Storage

/// The catalogue in SQLite.
public struct SQLiteCatalogueStore: CatalogueStore {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    static let columns = "id, title, category, district, place, audience, fee, is_free, starts_on, ends_on, organization, link, image_url"

    public func upsert(_ entries: [CatalogueEntry], at: Date, progress: @escaping @Sendable (Int) -> Void) async throws -> [UpsertOutcome] {
        guard !entries.isEmpty else {
            progress(0)
            return []
        }
        let step = max(1, entries.count / 200)
        return try await database.write { db in
            let select = try db.cachedStatement(sql: "SELECT natural_key, \(Self.columns) FROM archive_events WHERE id = ?")
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO archive_events (id, natural_key, title, category, district, place, audience, fee, is_free, starts_on, ends_on,
                                                organization, link, image_url, search_text, audience_folded, imported_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            let update = try db.cachedStatement(
                sql: """
                    UPDATE archive_events SET title = ?, category = ?, district = ?, place = ?, audience = ?, fee = ?, is_free = ?,
                           starts_on = ?, ends_on = ?, organization = ?, link = ?, image_url = ?, search_text = ?, audience_folded = ?,
                           updated_at = ?
                    WHERE id = ?
                    """)
            var outcomes: [UpsertOutcome] = []
            outcomes.reserveCapacity(entries.count)
            for (index, entry) in entries.enumerated() {
                let event = entry.event
                if let row = try Row.fetchOne(select, arguments: [event.id.rawValue]) {
                    if (row["natural_key"] as String) != entry.naturalKey {
                        outcomes.append(.collision)
                    } else if try Self.event(row) == event {
                        outcomes.append(.unchanged)
                    } else {
                        try update.execute(arguments: [
                            event.title, event.category, event.district, event.place, event.audience, event.fee, event.isFree,
                            event.startsOn.description, event.endsOn.description, event.organization, event.link?.absoluteString,
                            event.imageURL?.absoluteString, Self.searchText(event), event.audience.lowercased(), at, event.id.rawValue,
                        ])
                        outcomes.append(.updated)
                    }
                } else {
                    try insert.execute(arguments: [
                        event.id.rawValue, entry.naturalKey, event.title, event.category, event.district, event.place, event.audience,
                        event.fee, event.isFree, event.startsOn.description, event.endsOn.description, event.organization,
                        event.link?.absoluteString, event.imageURL?.absoluteString, Self.searchText(event), event.audience.lowercased(), at,
                        at,
                    ])
                    outcomes.append(.inserted)
                }
                if (index + 1) % step == 0 || index + 1 == entries.count { progress(index + 1) }
            }
            return outcomes
        }
    }

    public func count() async throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM archive_events") ?? 0 }
    }

    public func event(id: EventID) async throws -> CulturalEvent? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM archive_events WHERE id = ?", arguments: [id.rawValue]).map(Self.event)
        }
    }

    public func search(_ query: EventQuery) async throws -> EventPage {
        let sql = SearchSQL(query)
        return try database.read { db in
            let total = try Int.fetchOne(db, sql: sql.countSQL, arguments: StatementArguments(sql.arguments)) ?? 0
            let events = try Row.fetchAll(
                db, sql: sql.pageSQL, arguments: StatementArguments(sql.arguments) + StatementArguments(sql.pageArguments)
            ).map(Self.event)
            return EventPage(events: events, total: total, page: query.effectivePage, perPage: query.effectivePerPage)
        }
    }

    public func categories() async throws -> [String] {
        try database.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT category FROM archive_events WHERE category <> '' ORDER BY category")
        }
    }

    public func events(endingOnOrAfter day: Day) async throws -> [CulturalEvent] {
        try database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.columns) FROM archive_events WHERE ends_on >= ? ORDER BY starts_on, title, id",
                arguments: [day.description]
            ).map(Self.event)
        }
    }

    // MARK: Rows

    /// The lowercased title, place and organisation, one per line (words never span lines).
    static func searchText(_ event: CulturalEvent) -> String {
        event.title.lowercased() + "\n" + event.place.lowercased() + "\n" + event.organization.lowercased()
    }

    static func event(_ row: Row) throws -> CulturalEvent {
        let startText: String = row["starts_on"]
        let endText: String = row["ends_on"]
        guard let startsOn = Day(startText), let endsOn = Day(endText) else { throw CorruptCatalogueRow(id: row["id"]) }
        let link: String? = row["link"]
        let image: String? = row["image_url"]
        return CulturalEvent(
            id: EventID(row["id"] as String), title: row["title"], category: row["category"], district: row["district"],
            place: row["place"], audience: row["audience"], fee: row["fee"], isFree: row["is_free"],
            startsOn: startsOn, endsOn: endsOn, organization: row["organization"], link: link.flatMap(URL.init(string:)),
            imageURL: image.flatMap(URL.init(string:)))
    }
}

/// A stored row that this build cannot read (a bug or a hand-edited database).
struct CorruptCatalogueRow: Error, CustomStringConvertible {
    let id: String
    var description: String { "The catalogue row \(id) has an unreadable date." }
}

/// The SQL of an ``EventQuery``: what ``SQLiteCatalogueStore/search(_:)`` runs, also rendered with
/// literals for the `sqlite3` command line (the benchmark runs both on the same file).
public struct SearchSQL: Sendable {
    /// `WHERE …` (or empty), with `?` placeholders.
    public let whereClause: String
    public let arguments: [String]
    public let limit: Int
    public let offset: Int

    public init(_ query: EventQuery) {
        var clauses: [String] = []
        var arguments: [String] = []
        for word in query.words {
            clauses.append("instr(search_text, ?) > 0")
            arguments.append(word)
        }
        if let district = query.districtFilter {
            clauses.append("district = ?")
            arguments.append(district)
        }
        if let category = query.categoryFilter {
            clauses.append("category = ?")
            arguments.append(category)
        }
        if let audience = query.audienceFilter {
            clauses.append("instr(audience_folded, ?) > 0")
            arguments.append(audience)
        }
        if let free = query.free { clauses.append(free ? "is_free = 1" : "is_free = 0") }
        if let from = query.from {
            clauses.append("ends_on >= ?")
            arguments.append(from.description)
        }
        if let to = query.to {
            clauses.append("starts_on <= ?")
            arguments.append(to.description)
        }
        if let on = query.on {
            clauses.append("starts_on <= ? AND ends_on >= ?")
            arguments += [on.description, on.description]
        }
        whereClause = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        self.arguments = arguments
        limit = query.effectivePerPage
        offset = query.offset
    }

    public var countSQL: String { "SELECT COUNT(*) FROM archive_events \(whereClause)" }
    public var pageSQL: String {
        "SELECT \(SQLiteCatalogueStore.columns) FROM archive_events \(whereClause) ORDER BY starts_on, title, id LIMIT ? OFFSET ?"
    }
    var pageArguments: [Int] { [limit, offset] }

    /// Both statements with their arguments inlined as SQL literals, for `sqlite3`.
    public var inlined: (count: String, page: String) {
        var index = 0
        func fill(_ sql: String, _ values: [String]) -> String {
            index = 0
            var result = ""
            for character in sql {
                if character == "?", index < values.count {
                    result += values[index]
                    index += 1
                } else {
                    result.append(character)
                }
            }
            return result
        }
        let literals = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }
        return (fill(countSQL, literals) + ";", fill(pageSQL, literals + pageArguments.map(String.init)) + ";")
    }
}
