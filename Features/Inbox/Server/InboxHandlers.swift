import APIServing
import Foundation
import InboxAPI
import InboxDomain
import OpenAPIRuntime

/// The operations of docs/api/openapi.yaml tagged Inbox (InboxAPI's `APIProtocol`): the request's
/// user's notices.
public struct InboxHandlers: APIProtocol {
    let inbox: any InboxUseCases

    public init(inbox: any InboxUseCases) {
        self.inbox = inbox
    }

    public func listNotices(_ input: Operations.ListNotices.Input) async throws -> Operations.ListNotices.Output {
        if let before = input.query.before, before < 1 {
            throw Problem.invalidParameter("before is a notice id, 1 or more, not \(before).", name: "before")
        }
        let page = try await inbox.list(
            unreadOnly: input.query.unread ?? false, limit: input.query.limit ?? InboxService.defaultLimit,
            before: input.query.before.map(String.init))
        return .ok(.init(body: .json(page)))
    }

    public func markNoticeRead(_ input: Operations.MarkNoticeRead.Input) async throws -> Operations.MarkNoticeRead.Output {
        guard input.path.noticeId >= 1 else {
            throw Problem.invalidParameter("A notice id is 1 or more, not \(input.path.noticeId).", name: "notice_id")
        }
        let result = try await inbox.markRead(String(input.path.noticeId))
        return .ok(.init(body: .json(result)))
    }

    public func markAllNoticesRead(_ input: Operations.MarkAllNoticesRead.Input) async throws -> Operations.MarkAllNoticesRead.Output {
        .ok(.init(body: .json(MarkedAllRead(marked: try await inbox.markAllRead()))))
    }
}
