import Foundation
import OperationsAPI

/// The server's own operation of docs/api/openapi.yaml (tag Health): `GET /healthz`, alive — the
/// process answers. Whether the database does is `/readyz`'s question (``OperationsRoutes``).
struct HealthHandlers: APIProtocol {
    /// This document's `info.version`.
    static let apiVersion = "1.2.0"

    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        .ok(.init(body: .json(.init(status: .ok, version: ServerCommand.version, apiVersion: Self.apiVersion))))
    }
}
