import AuthInterface
import Persistence
import Registry
import SharedKit

/// Inbox's share in deleting a user (`moa auth delete`): nothing stands in the way, and erasing
/// deletes every notice the user received. Notices are only ever about their recipient, so nothing
/// of them needs to stay for anybody else.
public enum InboxUserData {
    public static func owner(store: any InboxStore) -> ErasingUserData {
        ErasingUserData("Inbox") { user, transaction in try store.eraseNotices(of: user, in: transaction) }
    }
}

/// Inbox's `UserDataOwner`, provided by `InboxFeatureModule`; the App lists it under `UserDataOwnersKey`.
public enum InboxUserDataKey: ServiceKey {
    public typealias Service = any UserDataOwner
}

extension InboxService {
    /// How a composition root composes Inbox's use cases: ``InboxServiceKey`` for whoever
    /// `SessionProviderKey` says is acting, and ``InboxUserDataKey``, Inbox's share in deleting a user.
    public static var providers: [Provider] {
        [
            .singleton(InboxServiceKey.self, requires: InboxStoreKey.self, SessionProviderKey.self, WallClockKey.self) {
                InboxService(store: $0, session: $1, clock: $2)
            },
            .singleton(InboxUserDataKey.self, requires: InboxStoreKey.self) { InboxUserData.owner(store: $0) },
        ]
    }
}
