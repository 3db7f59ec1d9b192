import Foundation
import Networking
import Registry
import SharedKit

/// Makes the HTTP client of a base URL, once per base URL: the search API's address is a setting
/// read at each request, so a changed `search.api-base-url` gets a client of its own.
///
/// The token is never part of a client: it travels in each request's headers, so a changed
/// `search.api-token` applies at once too.
public final class SearchHTTPClients: Sendable {
    private let make: @Sendable (URL) -> any HTTPClient
    private let clients = Locked<[URL: any HTTPClient]>([:])

    /// Clients made by `make`, one per base URL.
    public init(_ make: @escaping @Sendable (URL) -> any HTTPClient) {
        self.make = make
    }

    /// Production: a `URLSessionHTTPClient` per base URL (ephemeral session, no URL cache, so that
    /// `If-None-Match` → `304` reaches the repository unchanged).
    public static func urlSession(timeout: TimeInterval) -> SearchHTTPClients {
        SearchHTTPClients { baseURL in
            URLSessionHTTPClient(baseURL: baseURL, session: URLSessionHTTPClient.makeSession(timeout: timeout))
        }
    }

    /// One client for every base URL (a `StubHTTPClient` in tests and the Example).
    public static func fixed(_ client: any HTTPClient) -> SearchHTTPClients {
        SearchHTTPClients { _ in client }
    }

    /// The client of `baseURL`, made on first use.
    public func client(for baseURL: URL) -> any HTTPClient {
        clients.withLock { clients in
            if let existing = clients[baseURL] { return existing }
            let client = make(baseURL)
            clients[baseURL] = client
            return client
        }
    }
}

/// The HTTP clients of the search API (SearchDataModule provides URLSession-based ones; tests and
/// the Example replace them with a stub).
public enum SearchHTTPClientsKey: ServiceKey { public typealias Service = SearchHTTPClients }
