import APIClient
import AccountDomain
import AuthInterface
import Registry

/// What changes in Account when `moa` is a client of `moa-server`: the accounts are the server's
/// (``RemoteAccounts``), as the signed-in person.
public enum AccountRemoteModule {
    /// The replacement of `AccountServiceKey`.
    public static var replacements: [Provider] {
        [
            .singleton(AccountServiceKey.self, requires: SignedInAPIKey.self, SessionProviderKey.self) {
                RemoteAccounts(api: $0, sessions: $1)
            }
        ]
    }
}
