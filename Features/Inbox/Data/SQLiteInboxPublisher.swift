import Foundation
import GRDB
import InboxDomain
import InboxInterface
import Persistence
import Registry
import SharedKit
import Storage

/// The `InboxPublisher` of the app: one row in the caller's transaction, so the notice commits or
/// rolls back with the event it tells about.
struct SQLiteInboxPublisher: InboxPublisher {
    func publish(_ notice: InboxNotice, in transaction: any Transaction) throws {
        let db = try SQLiteTransaction.open(transaction)
        try db.cachedStatement(
            sql: """
                INSERT INTO inbox_notices (recipient_id, kind, title, body, created_at, transfer) VALUES (?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            notice.recipient.rawValue, notice.kind.rawValue, notice.title, notice.body, StoredDate(notice.createdAt),
            InboxItem.storedText(notice.transfer),
        ])
    }
}
