import Registry

/// `moa-server` as the signed-in person: every request carries their access token (refreshed when
/// refused). Auth's remote module adds it when `moa` runs against a server; every other served
/// feature's remote use cases require it, so none of them sees how a session is kept.
public enum SignedInAPIKey: ServiceKey {
    public typealias Service = RemoteAPI
    public static var expectedProvider: String { "Auth" }
}
