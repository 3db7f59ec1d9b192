import Foundation

/// What the HTTP plumbing reports to the server's metrics: one answered request (by method, route
/// template and status, with its duration), and a connection refused at the ceiling. `moa-server`'s
/// `ServerMetrics` counts them for `/metrics`.
public protocol TrafficCounting: Sendable {
    func request(method: String, route: String, status: Int, duration: Duration)
    func connectionRefused()
}
