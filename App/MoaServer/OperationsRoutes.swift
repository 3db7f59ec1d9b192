import APIServing
import Foundation
import HTTPServing
import Hummingbird
import SharedKit

/// The routes for operators, beside the API's: `HEAD /healthz` (the process answers; `GET /healthz`
/// is the document's), `GET /readyz` (the database answers and has every migration step this build
/// knows: a load balancer sends traffic only then) and `GET /metrics` (``ServerMetrics``, in
/// Prometheus's text format).
struct OperationsRoutes {
    let engine: MoaServer.Engine
    /// `nil` when the metrics are served on a port of their own (`--metrics-port`).
    let metrics: ServerMetrics?

    func register(on router: Router<MoaRequestContext>) {
        router.head("/healthz") { _, _ in Response(status: .ok) }
        let engine = engine
        router.get("/readyz") { _, _ in try await Self.readiness(of: engine) }
        router.head("/readyz") { _, _ in Response(status: try await Self.readiness(of: engine).status) }
        if let metrics { Self.metrics(metrics, on: router) }
    }

    static func metrics(_ metrics: ServerMetrics, on router: Router<MoaRequestContext>) {
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.scrape())))
        }
    }

    /// 200 `{"status":"ready"}`, or 503 `not-ready` saying why: the database does not answer, or
    /// lacks migration steps (another moa-server of an older build set it up and this one has not run its own).
    static func readiness(of engine: MoaServer.Engine) async throws -> Response {
        let pending: [String]
        do {
            pending = try await engine.pendingMigrations()
        } catch {
            throw notReady(ErrorMapping.userFacing(error, unexpectedSentence: "The database does not answer").message)
        }
        guard pending.isEmpty else {
            throw notReady("The database lacks \(pending.count) migration step(s) of this build, first \(pending[0]).")
        }
        return Problem.json(["status": "ready"], status: .ok, contentType: "application/json")
    }

    private static func notReady(_ detail: String) -> Problem {
        Problem(
            kind: "not-ready", title: "Not ready", status: .serviceUnavailable, detail: detail, exitStatus: .temporaryFailure,
            retryAfter: 1)
    }
}
