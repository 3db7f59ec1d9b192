/// What Inbox's commands and screens ask, whoever answers: the embedded ``InboxService``, or the
/// App's remote implementation over `moa-server`'s API. Each acts for the person at the terminal.
public protocol InboxUseCases: Sendable {
    /// One page of the user's notices, newest first; `before`: the `nextBefore` of the previous page.
    func page(unreadOnly: Bool, limit: Int, before: String?) async throws -> InboxPage
    /// Marks one of the user's notices read (another user's is "not found").
    func markRead(_ reference: String) async throws -> InboxReadResult
    /// Marks every unread notice of the user read; returns how many there were.
    func markAllRead() async throws -> Int
}

extension InboxUseCases {
    /// One page of the user's notices, newest first (``page(unreadOnly:limit:before:)`` with defaults).
    public func list(unreadOnly: Bool = false, limit: Int = InboxService.defaultLimit, before: String? = nil) async throws -> InboxPage {
        try await page(unreadOnly: unreadOnly, limit: limit, before: before)
    }
}

extension InboxService: InboxUseCases {
    public func page(unreadOnly: Bool, limit: Int, before: String?) async throws -> InboxPage {
        try await list(unreadOnly: unreadOnly, limit: limit, before: before)
    }
}
