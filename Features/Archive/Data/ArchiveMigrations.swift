import GRDB
import Storage

/// Archive's schema: the imported catalogue (shared by every user of this home), each user's tickets
/// and each user's onboarding preferences (v2).
///
/// Days are stored as `YYYY-MM-DD` text, which sorts and compares as dates. `search_text` holds the
/// lowercased title, place and organisation (one per line) and `audience_folded` the lowercased
/// audience, so that text filters are plain `instr` calls with the same meaning as in Swift.
public enum ArchiveMigrations {
    public static let all = MigrationSet(
        feature: "Archive",
        steps: [
            .init("v1-create-catalogue-and-tickets") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE archive_events (
                            id TEXT PRIMARY KEY NOT NULL,
                            natural_key TEXT NOT NULL,
                            title TEXT NOT NULL,
                            category TEXT NOT NULL,
                            district TEXT NOT NULL,
                            place TEXT NOT NULL,
                            audience TEXT NOT NULL,
                            fee TEXT NOT NULL,
                            is_free INTEGER NOT NULL,
                            starts_on TEXT NOT NULL,
                            ends_on TEXT NOT NULL,
                            organization TEXT NOT NULL,
                            link TEXT,
                            image_url TEXT,
                            search_text TEXT NOT NULL,
                            audience_folded TEXT NOT NULL,
                            imported_at DATETIME NOT NULL,
                            updated_at DATETIME NOT NULL
                        );
                        CREATE INDEX archive_events_by_start ON archive_events (starts_on, title, id);
                        CREATE INDEX archive_events_by_district ON archive_events (district, starts_on);
                        CREATE INDEX archive_events_by_category ON archive_events (category, starts_on);
                        CREATE INDEX archive_events_by_end ON archive_events (ends_on);

                        CREATE TABLE archive_tickets (
                            id TEXT PRIMARY KEY NOT NULL,
                            owner_id TEXT NOT NULL,
                            event_id TEXT,
                            title TEXT NOT NULL,
                            category TEXT NOT NULL,
                            district TEXT NOT NULL,
                            place TEXT NOT NULL,
                            audience TEXT NOT NULL,
                            is_free INTEGER NOT NULL,
                            attended_on TEXT NOT NULL,
                            rating INTEGER CHECK (rating BETWEEN 1 AND 5),
                            memo TEXT,
                            created_at DATETIME NOT NULL
                        );
                        CREATE INDEX archive_tickets_by_owner ON archive_tickets (owner_id, attended_on);
                        CREATE UNIQUE INDEX archive_tickets_once_a_day ON archive_tickets (owner_id, event_id, attended_on)
                            WHERE event_id IS NOT NULL;
                        """)
            },
            .init("v2-create-preferences") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE archive_preferences (
                            owner_id TEXT PRIMARY KEY NOT NULL,
                            districts TEXT NOT NULL,
                            categories TEXT NOT NULL,
                            updated_at DATETIME NOT NULL
                        );
                        """)
            },
        ])
}
