import APIClient
import AccountRemote
import ArchiveRemote
import AuthRemote
import InboxRemote
import Registry
import SettingsRemote
import TransferRemote

// new-feature: remote imports

/// What makes `moa` a client of `moa-server`: the same keys the embedded app registers — Auth's
/// session rules, sign-up, reset and deletion; Account's, Transfer's and Inbox's use cases;
/// Settings' money settings; Archive's tickets and preferences — each replaced by its feature's
/// remote implementation (its `<F>RemoteModule`), through the registry's validated overriding (a
/// key that nothing registers cannot be replaced). Search, Archive's catalogue, the PIN and the
/// display settings stay on this machine.
public enum RemoteComposition {
    /// Every served feature's replacements but Auth's, which come first. Serving a feature adds one
    /// entry here (Scripts/new-feature --served does).
    static let features: [[Provider]] = [
        AccountRemoteModule.replacements,
        TransferRemoteModule.replacements,
        InboxRemoteModule.replacements,
        SettingsRemoteModule.replacements,
        ArchiveRemoteModule.replacements,
        // new-feature: remote features
    ]

    /// Makes `overrides` talk to `address`: the signed-in connection, then every feature's replacements.
    /// - Parameter onSignedUp: runs once a sign-up or a login on the server succeeded (`moa` then
    ///   remembers a server given with `--server`: a mistyped one is never remembered).
    static func override(
        _ overrides: inout Overrides, for address: ServerAddress, onSignedUp: @escaping @Sendable () throws -> Void = {}
    ) {
        let api = RemoteAPI(address: address)
        overrides.add(AuthRemoteModule.signedIn(api))
        for provider in AuthRemoteModule.replacements(api, onSignedUp: onSignedUp) + features.joined() {
            overrides.replace(provider)
        }
    }
}
