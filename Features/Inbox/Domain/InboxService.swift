import AuthInterface
import Foundation
import InboxInterface
import SharedKit

/// The inbox use cases: every one acts for the logged-in user, on the user's own notices.
public struct InboxService: Sendable {
    /// Notices per page unless asked otherwise.
    public static let defaultLimit = 20
    /// The most notices one page may hold.
    public static let maximumLimit = 200

    private let store: any InboxStore
    private let session: any SessionProvider
    private let clock: any WallClock

    public init(store: any InboxStore, session: any SessionProvider, clock: any WallClock) {
        self.store = store
        self.session = session
        self.clock = clock
    }

    /// One page of the user's notices, newest first; with `unreadOnly`, only those not read yet.
    /// `before`: the `nextBefore` of the previous page (a notice id), to see older ones.
    public func list(unreadOnly: Bool = false, limit: Int = InboxService.defaultLimit, before: String? = nil) async throws -> InboxPage {
        guard (1...Self.maximumLimit).contains(limit) else { throw InboxError.invalidLimit(limit) }
        let before = try before.map(Self.noticeID)
        let user = try await session.requireUser()
        let found = try await store.notices(for: user.id, unreadOnly: unreadOnly, before: before, limit: limit + 1)
        let page = Array(found.prefix(limit))
        let next = found.count > limit ? page.last?.id : nil
        return InboxPage(notices: page, unreadCount: try await store.unreadCount(for: user.id), nextBefore: next)
    }

    /// Marks one of the user's notices read. Another user's notice is "not found", like an unknown id.
    public func markRead(_ reference: String) async throws -> InboxReadResult {
        let id = try Self.noticeID(reference)
        let user = try await session.requireUser()
        guard let result = try await store.markRead(id, for: user.id, at: clock.now()) else {
            throw InboxError.notFound(String(id))
        }
        return result
    }

    /// Marks every unread notice of the user read; returns how many there were.
    public func markAllRead() async throws -> Int {
        let user = try await session.requireUser()
        return try await store.markAllRead(for: user.id, at: clock.now())
    }

    /// A notice id as a person types it: `12`, ` 12 `, or `#12`.
    public static func noticeID(_ text: String) throws(InboxError) -> Int64 {
        var trimmed = Substring(text).drop(while: \.isWhitespace)
        while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
        if trimmed.first == "#" { trimmed.removeFirst() }
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int64(trimmed), id > 0 else {
            throw .invalidID(text)
        }
        return id
    }
}
