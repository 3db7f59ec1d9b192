import ArchiveInterface
import AuthInterface
import Foundation
import Persistence
import Registry
import SharedKit

/// Archive's share in deleting a user (`moa auth delete`): nothing ever blocks it — tickets and
/// preferences are the user's own and nobody else needs them — and erasing removes every ticket and
/// the preferences of the user, in Auth's transaction. The imported catalogue is shared and stays.
public enum ArchiveUserData {
    public static func owner(store: any ArchiveUserDataStore) -> ErasingUserData {
        ErasingUserData("Archive") { user, transaction in try store.erase(user, in: transaction) }
    }

    /// `ArchiveUserDataKey` from `ArchiveUserDataStoreKey`: for `moa` (ArchiveFeatureModule) and for
    /// `moa-server`, which keeps each user's tickets and preferences too.
    public static var provider: Provider {
        .singleton(ArchiveUserDataKey.self, requires: ArchiveUserDataStoreKey.self) { owner(store: $0) }
    }
}

/// Archive's `UserDataOwner`, for the App to list under `UserDataOwnersKey` (provided by ArchiveFeatureModule).
public enum ArchiveUserDataKey: ServiceKey { public typealias Service = any UserDataOwner }
