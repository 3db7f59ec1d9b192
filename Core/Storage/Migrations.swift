import GRDB

/// The schema steps of one feature, in order. Each feature's Data target declares one set; the App
/// hands all sets to ``AppDatabase/open(at:migrations:)``. Identifiers are prefixed with the
/// feature name, so features never collide and `moa doctor` shows who owns which step.
public struct MigrationSet: Sendable {
    public struct Step: Sendable {
        public let name: String
        let migrate: @Sendable (Database) throws -> Void

        public init(_ name: String, migrate: @escaping @Sendable (Database) throws -> Void) {
            self.name = name
            self.migrate = migrate
        }
    }

    public let feature: String
    public let steps: [Step]

    public init(feature: String, steps: [Step]) {
        self.feature = feature
        self.steps = steps
    }

    /// The identifiers as stored in `grdb_migrations`: `Feature/step`.
    public var identifiers: [String] { steps.map { "\(feature)/\($0.name)" } }
}
