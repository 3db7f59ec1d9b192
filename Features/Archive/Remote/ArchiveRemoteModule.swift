import APIClient
import ArchiveDomain
import Registry

/// What changes in Archive when `moa` is a client of `moa-server`: a person's tickets and
/// preferences follow them to every machine (``RemoteTicketStore``, ``RemotePreferenceStore``);
/// the catalogue is each machine's own.
public enum ArchiveRemoteModule {
    /// The replacements of `TicketStoreKey` and `PreferenceStoreKey`.
    public static var replacements: [Provider] {
        [
            .singleton(TicketStoreKey.self, requires: SignedInAPIKey.self) { RemoteTicketStore(api: $0) },
            .singleton(PreferenceStoreKey.self, requires: SignedInAPIKey.self) { RemotePreferenceStore(api: $0) },
        ]
    }
}
