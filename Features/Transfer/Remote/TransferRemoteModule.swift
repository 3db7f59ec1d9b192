import APIClient
import Registry
import TransferDomain
import TransferInterface

/// What changes in Transfer when `moa` is a client of `moa-server`: sending, reading and the
/// recipients are the server's (``RemoteTransfers``), as the signed-in person.
public enum TransferRemoteModule {
    /// The replacements of `SendMoneyKey`, `TransferStarterKey`, `TransferReadingKey` and `RecipientBookKey`.
    public static var replacements: [Provider] {
        [
            .singleton(SendMoneyKey.self, requires: SignedInAPIKey.self) { RemoteTransfers(api: $0) },
            .singleton(TransferStarterKey.self, requires: SignedInAPIKey.self) { RemoteTransfers(api: $0) },
            .singleton(TransferReadingKey.self, requires: SignedInAPIKey.self) { RemoteTransfers(api: $0) },
            .singleton(RecipientBookKey.self, requires: SignedInAPIKey.self) { RemoteTransfers(api: $0) },
        ]
    }
}
