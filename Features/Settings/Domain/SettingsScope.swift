import AuthInterface
import Registry

/// Whose stored settings a command reads and writes: the logged-in user's, or the device's before
/// anyone logs in. A user's unset key falls back to the device's value, then to the default.
public struct SettingsScope: Sendable, Hashable {
    /// The `scope` column of `settings_value`: the user id, or `device`.
    public let storageKey: String
    /// The user's e-mail, for messages; `nil` for the device.
    public let owner: String?

    /// Settings of this device (nobody logged in).
    public static let device = SettingsScope(storageKey: "device", owner: nil)

    /// Settings of the user `id`.
    public static func user(id: String, email: String) -> SettingsScope {
        SettingsScope(storageKey: id, owner: email)
    }

    public var isDevice: Bool { owner == nil }
}

/// Tells the current scope. The app's follows Auth's session (``SessionSettingsScope``).
public protocol SettingsScopeSource: Sendable {
    func currentScope() async throws -> SettingsScope
}

public enum SettingsScopeSourceKey: ServiceKey {
    public typealias Service = any SettingsScopeSource
}

/// The scope of whoever is logged in (`SessionProvider.currentUser()`), or the device.
public struct SessionSettingsScope: SettingsScopeSource {
    private let session: any SessionProvider

    public init(session: any SessionProvider) {
        self.session = session
    }

    public func currentScope() async throws -> SettingsScope {
        guard let user = try await session.currentUser() else { return .device }
        return .user(id: user.id.rawValue, email: user.email)
    }

    /// The provider the app composes: the scope follows Auth's `SessionProviderKey`. It lives here
    /// because only Settings' Domain and Feature may see AuthInterface.
    public static var provider: Provider {
        .singleton(SettingsScopeSourceKey.self, requires: SessionProviderKey.self) { SessionSettingsScope(session: $0) }
    }
}
