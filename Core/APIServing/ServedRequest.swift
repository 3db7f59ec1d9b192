import Logging

/// The request being served, as every handler may know it: set by the server around the rest of
/// the request (a task-local value, so that use cases composed once act for this request and no
/// other, however many run at once).
public struct ServedRequest: Sendable {
    /// Whether the request carried an `Authorization` header at all (a 401 says which it was).
    public let tokenGiven: Bool
    /// The client address, as the server resolved it (guessing is throttled per client).
    public let client: String
    /// The request's logger (its `request_id` on every line).
    public let logger: Logger

    public init(tokenGiven: Bool, client: String, logger: Logger) {
        self.tokenGiven = tokenGiven
        self.client = client
        self.logger = logger
    }

    @TaskLocal public static var current: ServedRequest?
}

extension ServedRequest {
    /// The client of a request whose address could not be found.
    public static let unknownClient = "unknown"
}
