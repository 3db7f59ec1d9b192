import Foundation
import InboxInterface
import Persistence
import Registry
import SharedKit

/// A notice as its recipient sees it in the inbox: what was published, plus its id and read state.
public struct InboxItem: Sendable, Hashable {
    /// Short, stable and never reused: what `moa inbox read ID` takes.
    public let id: Int64
    public let kind: InboxNoticeKind
    public let title: String
    public let body: String
    public let createdAt: Date
    /// When the recipient marked it read (`nil`: unread).
    public let readAt: Date?
    /// The transfer it tells about, as values; `nil` for a notice about something else.
    public let transfer: NoticeTransferDetails?

    public init(
        id: Int64, kind: InboxNoticeKind, title: String, body: String, createdAt: Date, readAt: Date?,
        transfer: NoticeTransferDetails? = nil
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.readAt = readAt
        self.transfer = transfer
    }

    /// What the store keeps of ``transfer``: its JSON, or `nil`.
    public static func storedText(_ transfer: NoticeTransferDetails?) -> String? {
        guard let transfer, let data = try? JSONEncoder().encode(transfer) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// ``transfer`` from what the store keeps; `nil` for none or for text that is not one.
    public static func transfer(fromStored text: String?) -> NoticeTransferDetails? {
        guard let text else { return nil }
        return try? JSONDecoder().decode(NoticeTransferDetails.self, from: Data(text.utf8))
    }

    public var isRead: Bool { readAt != nil }
}

/// One page of the inbox, newest first.
public struct InboxPage: Sendable, Hashable {
    public let notices: [InboxItem]
    /// How many unread notices the user has in all (not only on this page).
    public let unreadCount: Int
    /// Pass as `before` for the next (older) page; `nil`: this is the last page.
    public let nextBefore: Int64?

    public init(notices: [InboxItem], unreadCount: Int, nextBefore: Int64?) {
        self.notices = notices
        self.unreadCount = unreadCount
        self.nextBefore = nextBefore
    }
}

/// What marking one notice read found.
public struct InboxReadResult: Sendable, Hashable {
    /// The notice, now read.
    public let notice: InboxItem
    /// `false` when it had already been read (nothing changed).
    public let wasUnread: Bool

    public init(notice: InboxItem, wasUnread: Bool) {
        self.notice = notice
        self.wasUnread = wasUnread
    }
}

/// Inbox's persistence (InboxData implements it on SQLite). Every method is scoped to one
/// recipient: a notice of another user is never read, changed or even acknowledged.
public protocol InboxStore: Sendable {
    /// The recipient's notices, newest first, those with an id below `before` (all when `nil`).
    func notices(for recipient: UserID, unreadOnly: Bool, before: Int64?, limit: Int) async throws -> [InboxItem]
    /// How many of the recipient's notices are unread.
    func unreadCount(for recipient: UserID) async throws -> Int
    /// Marks the recipient's notice `id` read at `at` (unless it already was); `nil` when the
    /// recipient has no such notice.
    func markRead(_ id: Int64, for recipient: UserID, at: Date) async throws -> InboxReadResult?
    /// Marks every unread notice of the recipient read; returns how many were.
    func markAllRead(for recipient: UserID, at: Date) async throws -> Int
    /// Deletes every notice of the recipient, inside the caller's transaction (user deletion).
    func eraseNotices(of recipient: UserID, in transaction: any Transaction) throws
}

public enum InboxStoreKey: ServiceKey { public typealias Service = any InboxStore }

/// The inbox use cases, for Inbox's commands.
public enum InboxServiceKey: ServiceKey { public typealias Service = any InboxUseCases }

/// Inbox's refusals.
public enum InboxError: Error, UserFacingError, Equatable {
    /// No notice of the user has this id (unknown, or someone else's: never revealed).
    case notFound(String)
    /// Not a notice id at all.
    case invalidID(String)
    case invalidLimit(Int)

    public var message: String {
        switch self {
        case .notFound(let id): "You have no notice \(id)."
        case .invalidID(let text): "“\(text)” is not a notice id: ids are whole numbers, as `moa inbox` shows them."
        case .invalidLimit(let limit): "The limit must be from 1 to \(InboxService.maximumLimit), not \(limit)."
        }
    }

    public var hint: String? {
        switch self {
        case .notFound, .invalidID: "Run `moa inbox` to see your notices and their ids."
        case .invalidLimit: nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .notFound: .unavailable
        case .invalidID: .dataError
        case .invalidLimit: .usage
        }
    }
}
