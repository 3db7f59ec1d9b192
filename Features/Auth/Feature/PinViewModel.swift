import AuthDomain
import AuthInterface
import Foundation
import SharedKit
import ViewModelKit

/// `moa auth pin …`: set, remove, or look at the logged-in user's PIN. No rule lives here.
@MainActor
public final class PinViewModel: ReportingViewModel {
    public static let unexpectedErrorSentence = AuthViewModel.unexpectedErrorSentence

    public enum Input: Sendable {
        case set(pin: String, repeated: String)
        /// Remove the PIN, proven with the PIN or the password (`nil` only when there is no PIN).
        case remove(PinProof?)
        case status
    }

    public typealias Action = Input

    public enum Outcome: Sendable, Equatable {
        case pinSet(AuthenticatedUser)
        case pinRemoved(AuthenticatedUser, hadPin: Bool)
        case status(PinStatus)
    }

    public typealias State = OutcomeState<Outcome>

    public private(set) var state = State()
    private let pins: PinService

    public nonisolated init(pins: PinService) {
        self.pins = pins
    }

    public func transform(_ input: Input) -> [Action] { [input] }

    public func perform(_ action: Action) async throws {
        state = State()
        switch action {
        case .set(let pin, let repeated):
            state.outcome = .pinSet(try await pins.setPin(pin, repeated: repeated))
        case .remove(let proof):
            let result = try await pins.removePin(proof)
            state.outcome = .pinRemoved(result.user, hadPin: result.removed)
        case .status:
            state.outcome = .status(try await pins.status())
        }
    }

    public func show(_ error: any UserFacingError) {
        state.fail(with: error)
    }
}

/// The unlock prompt of the interactive mode: is a PIN needed, and what did the one entered do.
@MainActor
public final class PinUnlockViewModel: ReportingViewModel {
    public static let unexpectedErrorSentence = AuthViewModel.unexpectedErrorSentence

    public enum Input: Sendable {
        case start
        case enter(pin: String)
    }

    public typealias Action = Input

    public enum Phase: Sendable, Equatable {
        case starting
        /// Ask for the PIN of `user`.
        case needsPin(AuthenticatedUser, triesLeft: Int)
        /// Go on to the home: unlocked, or nothing to unlock (no session, no PIN).
        case open
        /// Too many wrong PINs: the session has ended; the home shows the signed-out entries.
        case sessionEnded
        /// The unlock could not run (e.g. the database failed): the interactive mode ends.
        case failed
    }

    public struct State: Sendable {
        public var phase: Phase = .starting
        /// What to tell the person about the last step (a wrong PIN, the lockout, a failure).
        public var error: (any UserFacingError)?
    }

    public private(set) var state = State()
    private let unlocker: any SessionUnlocker

    public nonisolated init(unlocker: any SessionUnlocker) {
        self.unlocker = unlocker
    }

    public func transform(_ input: Input) -> [Action] { [input] }

    public func perform(_ action: Action) async throws {
        state.error = nil
        switch action {
        case .start:
            switch try await unlocker.unlockState() {
            case .notNeeded: state.phase = .open
            case .pinRequired(let user, let triesLeft): state.phase = .needsPin(user, triesLeft: triesLeft)
            }
        case .enter(let pin):
            switch try await unlocker.unlock(pin: pin) {
            case .unlocked, .notLoggedIn:
                state.phase = .open
            case .wrongPin(let triesLeft):
                if case .needsPin(let user, _) = state.phase { state.phase = .needsPin(user, triesLeft: triesLeft) }
                state.error = PinError.wrongPin(triesLeft: triesLeft)
            case .sessionEnded:
                state.phase = .sessionEnded
                state.error = PinError.tooManyWrongPins
            }
        }
    }

    /// Something that cannot be a PIN is said and asked again; any other failure ends the prompt,
    /// without letting anybody past it.
    public func handleError(_ error: any Error) {
        if let error = error as? PinError, case .needsPin = state.phase {
            state.error = error
            return
        }
        show(Self.userFacing(error))
    }

    /// Any failure but a PIN that cannot be one ends the prompt.
    public func show(_ error: any UserFacingError) {
        state.phase = .failed
        state.error = error
    }
}
