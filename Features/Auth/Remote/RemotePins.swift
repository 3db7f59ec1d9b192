import AuthDomain
import Foundation
import Persistence
import SharedKit

/// The PIN when `moa` is a client of `moa-server`: not available yet. A PIN is kept on this machine
/// for a user of this machine's database; a server's user has no row here to keep it with. Setting
/// one is refused in one sentence (69); nobody has one, so nothing ever asks for it.
public struct RemotePins: PinStore {
    public init() {}

    public func pin(for user: UserID) async throws -> PinRecord? { nil }

    public func savePin(hash: String, for user: UserID, at date: Date) async throws { throw PinUnavailable() }

    public func deletePin(
        for user: UserID, recording event: SecurityEvent, alongside: @Sendable (any Transaction) throws -> Void
    ) async throws -> Bool { false }

    public func recordWrongPin(
        for user: UserID, limit: Int, lockout: SecurityEvent, alongside: @Sendable (any Transaction) throws -> Void
    ) async throws -> Int { 0 }

    public func resetWrongPins(for user: UserID) async throws {}
}

/// Setting a PIN while the home uses a server.
public struct PinUnavailable: UserFacingError, Equatable {
    public var message: String { "A PIN cannot be set yet while this home uses a moa-server." }
    public var hint: String? { "The password protects the session meanwhile; `moa auth logout` ends it on this machine." }
    public var exitStatus: ExitStatus { .unavailable }
}
