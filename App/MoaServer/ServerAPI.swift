import Foundation
import MoaAPI
import OpenAPIRuntime
import Storage

/// The operations of docs/api/openapi.yaml that `moa-server` serves (Scripts/generate-api's `SERVED`
/// list): the generated `APIProtocol`, implemented on the composed services. The generated server
/// code (Generated/Server.swift) decodes each request and encodes each response as the document says.
struct ServerAPI: APIProtocol {
    /// This document's `info.version`.
    static let apiVersion = "1.0.0"

    let database: AppDatabase

    /// Answers while the server runs and its database can be read.
    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        _ = try database.read { db in try db.tableExists("account_accounts") }
        return .ok(.init(body: .json(.init(status: .ok, version: ServerCommand.version, apiVersion: Self.apiVersion))))
    }
}
