import APIClient
import InboxDomain
import Registry

/// What changes in Inbox when `moa` is a client of `moa-server`: the notices are the server's
/// (``RemoteInbox``), as the signed-in person.
public enum InboxRemoteModule {
    /// The replacement of `InboxServiceKey`.
    public static var replacements: [Provider] {
        [.singleton(InboxServiceKey.self, requires: SignedInAPIKey.self) { RemoteInbox(api: $0) }]
    }
}
