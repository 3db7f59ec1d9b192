import APIClient
import ArchiveAPI
import ArchiveDomain
import ArchiveInterface
import Foundation
import SharedKit

/// Archive's onboarding preferences when `moa` is a client of `moa-server`: the user's, on the
/// server. ``ArchiveService`` matches what the person typed against this machine's catalogue first;
/// what the server answers is held to the server's own rules (``PreferenceInput/received(districts:categories:)``).
public struct RemotePreferenceStore: PreferenceStore {
    /// Calls that carry the session.
    let api: RemoteAPI

    public init(api: RemoteAPI) { self.api = api }

    public func preferences(of owner: UserID) async throws -> ArchivePreferences? {
        try await api.call { client in
            guard case .ok(let ok) = try await client.getPreferences() else { throw RemoteAPI.unexpected("the preferences") }
            return try Self.preferences(try ok.body.json)
        }
    }

    public func save(_ preferences: ArchivePreferences, of owner: UserID, at date: Date) async throws {
        let body = Components.Schemas.PutPreferencesRequest(districts: preferences.districts, categories: preferences.categories)
        try await api.call { client in
            guard case .ok = try await client.putPreferences(body: .json(body)) else { throw RemoteAPI.unexpected("the preferences") }
        }
    }

    public func clear(of owner: UserID) async throws -> Bool {
        do {
            return try await api.call { client in
                guard case .noContent = try await client.clearPreferences() else { throw RemoteAPI.unexpected("the preferences") }
                return true
            }
        } catch let problem as RemoteProblem where problem.status == 404 {
            return false
        }
    }

    /// The server's answer as this machine keeps it: none, or lists that meet the server's rules.
    static func preferences(_ wire: Components.Schemas.ArchivePreferences) throws -> ArchivePreferences? {
        guard wire.set else { return nil }
        do {
            let (districts, categories) = try PreferenceInput.received(
                districts: wire.districts.map(\.name), categories: wire.categories)
            return ArchivePreferences(districts: districts, categories: categories, updatedAt: wire.updatedAt)
        } catch {
            throw RemoteAPI.unexpected("the preferences")
        }
    }
}
