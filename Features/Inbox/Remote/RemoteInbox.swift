import APIClient
import Foundation
import InboxAPI
import InboxDomain
import InboxInterface
import SharedKit

/// Inbox's use cases on `moa-server`: the notices the server's transfers and logins left.
public struct RemoteInbox: InboxUseCases {
    /// Calls that carry the session.
    let api: RemoteAPI

    public init(api: RemoteAPI) { self.api = api }

    public func page(unreadOnly: Bool, limit: Int, before: String?) async throws -> InboxPage {
        // The server takes the id as a number; text that is not one is refused here, as the embedded app does.
        let before = try before.map(InboxService.noticeID)
        return try await api.call { client in
            guard case .ok(let ok) = try await client.listNotices(query: .init(unread: unreadOnly, limit: limit, before: before)) else {
                throw RemoteAPI.unexpected("the inbox")
            }
            return try ok.body.json
        }
    }

    public func markRead(_ reference: String) async throws -> InboxReadResult {
        let id = try InboxService.noticeID(reference)
        return try await api.call { client in
            guard case .ok(let ok) = try await client.markNoticeRead(path: .init(noticeId: id)) else {
                throw RemoteAPI.unexpected("the notice")
            }
            return try ok.body.json
        }
    }

    public func markAllRead() async throws -> Int {
        try await api.call { client in
            guard case .ok(let ok) = try await client.markAllNoticesRead() else { throw RemoteAPI.unexpected("the inbox") }
            return try ok.body.json.marked
        }
    }
}

extension RemoteAPI {
    /// One call of InboxAPI's generated client, on this API's server, connections and credentials.
    func call<T: Sendable>(_ work: @escaping @Sendable (Client) async throws -> T) async throws -> T {
        let client = Client(serverURL: address.url, configuration: .moa, transport: transport, middlewares: middlewares)
        return try await call { try await work(client) }
    }
}
