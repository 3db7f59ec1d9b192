import SharedKit

/// The state of a screen that shows one outcome or one error, which is what most view models hold:
/// `typealias State = OutcomeState<Outcome>`.
public struct OutcomeState<Outcome: Sendable>: Sendable {
    /// What the last input produced, for the screen to show.
    public var outcome: Outcome?
    /// Why the last input failed, as one sentence.
    public var error: (any UserFacingError)?
    /// An action is running.
    public var isWorking: Bool

    public init(outcome: Outcome? = nil, error: (any UserFacingError)? = nil, isWorking: Bool = false) {
        self.outcome = outcome
        self.error = error
        self.isWorking = isWorking
    }

    /// Shows `error` instead of an outcome (a view model's ``ReportingViewModel/show(_:)``).
    public mutating func fail(with error: any UserFacingError) {
        outcome = nil
        self.error = error
    }
}
