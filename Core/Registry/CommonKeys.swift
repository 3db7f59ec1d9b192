import SharedKit

/// The wall clock of this run of the app (tests provide a `ManualWallClock`).
public enum WallClockKey: ServiceKey {
    public typealias Service = any WallClock
    public static var expectedProvider: String { "Core" }
}
