import Foundation
import InboxInterface

// Inbox's records as a program reads them — `moa inbox … --json`, and moa-server's answers about
// notices: one JSON shape each, written once. docs/api/openapi.yaml documents them as the schemas
// `Notice`, `InboxPage`, `NoticeRead` and `MarkedAllRead`, whose generated types are these
// (`x-moa-swift-type`, see Scripts/generate-api). Snake_case keys; `read_at` and `next_before` are
// `null`, not absent, when there is none. Decoding is the client's edge: a kind this moa does not
// know fails it.

extension InboxItem: Codable {
    enum CodingKeys: String, CodingKey {
        case id, kind, title, body, read, transfer
        case createdAt = "created_at"
        case readAt = "read_at"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(Int64.self, forKey: .id), kind: try container.decode(InboxNoticeKind.self, forKey: .kind),
            title: try container.decode(String.self, forKey: .title), body: try container.decode(String.self, forKey: .body),
            createdAt: try container.decode(Date.self, forKey: .createdAt),
            readAt: try container.decodeIfPresent(Date.self, forKey: .readAt),
            transfer: try container.decodeIfPresent(NoticeTransferDetails.self, forKey: .transfer))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(readAt != nil, forKey: .read)
        try container.encode(readAt, forKey: .readAt)
        try container.encode(transfer, forKey: .transfer)
    }
}

extension InboxPage: Codable {
    enum CodingKeys: String, CodingKey {
        case notices
        case unreadCount = "unread_count"
        case nextBefore = "next_before"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            notices: try container.decode([InboxItem].self, forKey: .notices),
            unreadCount: try container.decode(Int.self, forKey: .unreadCount),
            nextBefore: try container.decodeIfPresent(Int64.self, forKey: .nextBefore))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(notices, forKey: .notices)
        try container.encode(unreadCount, forKey: .unreadCount)
        try container.encode(nextBefore, forKey: .nextBefore)
    }
}

extension InboxReadResult: Codable {
    enum CodingKeys: String, CodingKey {
        case notice
        case wasUnread = "was_unread"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            notice: try container.decode(InboxItem.self, forKey: .notice), wasUnread: try container.decode(Bool.self, forKey: .wasUnread))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(notice, forKey: .notice)
        try container.encode(wasUnread, forKey: .wasUnread)
    }
}

/// How many notices "mark all read" marked: `{"marked": 3}`.
public struct MarkedAllRead: Codable, Hashable, Sendable {
    public let marked: Int

    public init(marked: Int) { self.marked = marked }
}
