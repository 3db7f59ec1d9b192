import AuthInterface
import Foundation
import TransferInterface

/// `TransferReading` for the logged-in user: their transfers, newest first, keyset-paged.
public struct TransferHistory: TransferReading {
    private let session: any SessionProvider
    private let store: any TransferStore

    public init(session: any SessionProvider, store: any TransferStore) {
        self.session = session
        self.store = store
    }

    public func transfers(limit: Int, after cursor: String?) async throws -> TransferPage {
        guard (1...200).contains(limit) else { throw TransferError.invalidPageSize(limit) }
        let before = try cursor.map(TransferCursor.decode)
        let user = try await session.requireUser()
        let rows = try await store.transfers(initiatedBy: user.id, before: before, limit: limit + 1)
        let page = Array(rows.prefix(limit))
        let next = rows.count > limit ? page.last.map { TransferCursor.encode($0.position) } : nil
        return TransferPage(transfers: page.map(\.transfer), nextCursor: next)
    }

    public func transfer(id: TransferID) async throws -> TransferSummary {
        let user = try await session.requireUser()
        guard let transfer = try await store.transfer(id: id, initiatedBy: user.id) else {
            throw TransferError.notFound(id.rawValue)
        }
        return transfer
    }
}

/// The opaque paging cursor: the position of the last transfer shown, versioned, base64url.
/// Positions only grow, so transfers sent while someone pages land before the first page and never
/// shift the pages after it.
enum TransferCursor {
    static func encode(_ position: Int64) -> String {
        Data("t1:\(position)".utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ cursor: String) throws(TransferError) -> Int64 {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8), text.hasPrefix("t1:"),
            let position = Int64(text.dropFirst(3)), position > 0
        else { throw .invalidCursor }
        return position
    }
}
