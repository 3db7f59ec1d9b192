import InboxInterface
import Persistence
import SharedKit

/// An `InboxPublisher` for other features' tests and Examples: keeps what was published, in order.
/// It ignores the transaction (a notice published in a transaction that later rolls back stays
/// here), so tests of "no notice on failure" should use the real Inbox store.
public final class FakeInboxPublisher: InboxPublisher {
    private let published = Locked<[InboxNotice]>([])

    public init() {}

    /// Every notice published so far, oldest first.
    public var notices: [InboxNotice] { published.withLock { $0 } }

    public func publish(_ notice: InboxNotice, in transaction: any Transaction) throws {
        published.withLock { $0.append(notice) }
    }
}
