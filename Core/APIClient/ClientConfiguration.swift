import APIWire
import OpenAPIRuntime

extension Configuration {
    /// The configuration of every generated client of `moa`: ``APIWire/InstantTranscoder`` for dates.
    public static let moa = Configuration(dateTranscoder: InstantTranscoder())
}
