import AuthInterface
import Persistence
import Registry
import SharedKit

/// Removes the stored settings of one scope inside a caller's transaction (SettingsData implements
/// it on SQLite). For deleting a user.
public protocol SettingsEraser: Sendable {
    /// Deletes every value stored in the scope `storageKey`; returns how many there were.
    @discardableResult
    func eraseValues(inScope storageKey: String, in transaction: any Transaction) throws -> Int
}

public enum SettingsEraserKey: ServiceKey {
    public typealias Service = any SettingsEraser
}

/// Settings' share in `moa auth delete`: nothing ever blocks a deletion, and erasing removes the
/// user's stored settings (the device's own settings, shared by whoever uses this terminal, stay).
public enum SettingsUserDataOwner {
    public static func owner(eraser: any SettingsEraser) -> ErasingUserData {
        ErasingUserData("Settings") { user, transaction in
            // A user's scope is their id; the device's scope is never erased through a user.
            guard user.rawValue != SettingsScope.device.storageKey else { return }
            try eraser.eraseValues(inScope: user.rawValue, in: transaction)
        }
    }

    /// `SettingsUserDataKey` from `SettingsEraserKey` (both provided by `SettingsDataModule`). It
    /// lives here because only Settings' Domain and Feature may see AuthInterface.
    public static var provider: Provider {
        .singleton(SettingsUserDataKey.self, requires: SettingsEraserKey.self) { SettingsUserDataOwner.owner(eraser: $0) }
    }
}

/// Settings' `UserDataOwner`, for the App's `UserDataOwnersKey` list.
public enum SettingsUserDataKey: ServiceKey {
    public typealias Service = any UserDataOwner
}
