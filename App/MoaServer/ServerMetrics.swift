import Foundation
import HTTPServing
import Prometheus
import SharedKit
import TransferServer

/// `moa-server`'s metrics, in Prometheus's text format at `/metrics` (swift-prometheus's registry;
/// ``factory`` hands the same registry to swift-metrics, so whatever the process records through
/// `MetricsSystem` is exported beside them).
///
/// No label holds user data: a route is its template (`/v1/accounts/{account}`), never the path
/// asked for, and a refusal is its problem kind. Every metric has its help text, so
/// `promtool check metrics` finds nothing to say.
public final class ServerMetrics: TrafficCounting {
    public let registry: PrometheusCollectorRegistry
    /// swift-metrics' factory on ``registry`` (`MetricsSystem.bootstrap` takes it in `moa-server`).
    public var factory: PrometheusMetricsFactory { PrometheusMetricsFactory(registry: registry) }

    private static func name(_ name: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "moa", metricName: name, unitName: unit, helpText: help)
    }

    private static var requests: MetricNameDescriptor {
        name("http_requests", "total", "HTTP requests answered, by method, route template and status.")
    }
    private static var duration: MetricNameDescriptor {
        name("http_request_duration", "seconds", "Time to answer an HTTP request, by method and route template.")
    }
    private static var transfersCommitted: MetricNameDescriptor { name("transfers_committed", "total", "Transfers written to the ledger.") }
    private static var transfersReplayed: MetricNameDescriptor {
        name(
            "transfers_replayed", "total",
            "Transfer requests answered with the receipt of an earlier request with the same idempotency key.")
    }
    private static var transfersRefused: MetricNameDescriptor {
        name("transfers_refused", "total", "Transfer requests refused, by problem kind.")
    }
    private let connectionsOpen: Gauge
    private let connectionsRefused: Counter
    private let databaseTransactions: Counter
    private let databaseRetries: Counter
    private let databaseAlone: Counter
    private let databaseInUse: Gauge
    private let databaseSize: Gauge
    /// What the database reported at the last scrape (counters grow by the difference).
    private let lastDatabase = Locked<DatabaseStatistics>(DatabaseStatistics())
    private let sources = Locked<Sources>(Sources())

    /// What the database layer counts, read at each scrape.
    public struct DatabaseStatistics: Sendable, Equatable {
        public var transactions = 0
        public var retries = 0
        public var alone = 0
        public var connectionsInUse = 0
        public var connections = 0

        public init(transactions: Int = 0, retries: Int = 0, alone: Int = 0, connectionsInUse: Int = 0, connections: Int = 0) {
            self.transactions = transactions
            self.retries = retries
            self.alone = alone
            self.connectionsInUse = connectionsInUse
            self.connections = connections
        }
    }

    private struct Sources: Sendable {
        var openConnections: (@Sendable () -> Int)?
        var database: (@Sendable () -> DatabaseStatistics)?
    }

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        connectionsOpen = registry.makeGauge(descriptor: Self.name("http_connections_open", "", "HTTP connections open now."))
        connectionsRefused = registry.makeCounter(
            descriptor: Self.name("http_connections_refused", "total", "HTTP connections refused at the connection ceiling (503)."))
        databaseTransactions = registry.makeCounter(
            descriptor: Self.name("database_transactions", "total", "PostgreSQL transactions committed or rolled back by the application."))
        databaseRetries = registry.makeCounter(
            descriptor: Self.name("database_retries", "total", "PostgreSQL transaction attempts run again after a serialization conflict."))
        databaseAlone = registry.makeCounter(
            descriptor: Self.name("database_alone", "total", "PostgreSQL transaction attempts that ran alone after repeated conflicts."))
        databaseInUse = registry.makeGauge(
            descriptor: Self.name("database_connections_in_use", "", "PostgreSQL pool connections leased by a transaction now."))
        databaseSize = registry.makeGauge(descriptor: Self.name("database_connections_max", "", "PostgreSQL pool connections at most."))
    }

    /// Where the open connections and the database's counts are read at each scrape.
    func observe(openConnections: (@Sendable () -> Int)? = nil, database: (@Sendable () -> DatabaseStatistics)? = nil) {
        sources.withLock { sources in
            if let openConnections { sources.openConnections = openConnections }
            if let database { sources.database = database }
        }
    }

    /// One answered request.
    public func request(method: String, route: String, status: Int, duration: Duration) {
        let (counter, histogram) = series.withLock { series in
            let route = Route(method: method, route: route)
            let counter =
                series.requests[Answered(route: route, status: status)]
                ?? registry.makeCounter(
                    descriptor: Self.requests, labels: [("method", method), ("route", route.route), ("status", String(status))])
            let histogram =
                series.durations[route]
                ?? registry.makeDurationHistogram(
                    descriptor: Self.duration, labels: [("method", method), ("route", route.route)],
                    buckets: [
                        .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
                        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2_500), .seconds(5), .seconds(10),
                    ])
            series.requests[Answered(route: route, status: status)] = counter
            series.durations[route] = histogram
            return (counter, histogram)
        }
        counter.increment()
        histogram.record(duration)
    }

    /// The series of the requests answered so far, by their labels: the registry checks and builds a
    /// series' name and labels each time it is asked for one (about 1 % of the server's CPU at 1,400
    /// transfers/s, when every request asked). As many as the registry holds: one per method, route
    /// template and status.
    private struct Series {
        var requests: [Answered: Counter] = [:]
        var durations: [Route: DurationHistogram] = [:]
    }

    private struct Route: Hashable {
        let method: String
        let route: String
    }

    private struct Answered: Hashable {
        let route: Route
        let status: Int
    }

    private let series = Locked(Series())

    /// What became of a transfer request (Transfer's handlers tell).
    func transfer(_ outcome: TransferHandlers.Outcome) {
        switch outcome {
        case .committed: registry.makeCounter(descriptor: Self.transfersCommitted).increment()
        case .replayed: registry.makeCounter(descriptor: Self.transfersReplayed).increment()
        case .refused(let kind): registry.makeCounter(descriptor: Self.transfersRefused, labels: [("kind", kind)]).increment()
        }
    }

    public func connectionRefused() { connectionsRefused.increment() }

    /// The Prometheus text exposition, the gauges read now.
    public func scrape() -> String {
        let (openConnections, database) = sources.withLock { ($0.openConnections, $0.database) }
        if let openConnections { connectionsOpen.set(Int64(openConnections())) }
        if let database {
            // Read and remembered under one lock: two scrapes at once count each transaction once.
            let (before, now) = lastDatabase.withLock { last in
                let now = database()
                defer { last = now }
                return (last, now)
            }
            databaseTransactions.increment(by: Int64(max(0, now.transactions - before.transactions)))
            databaseRetries.increment(by: Int64(max(0, now.retries - before.retries)))
            databaseAlone.increment(by: Int64(max(0, now.alone - before.alone)))
            databaseInUse.set(Int64(now.connectionsInUse))
            databaseSize.set(Int64(now.connections))
        }
        return registry.emitToString()
    }
}
