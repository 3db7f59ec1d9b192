import Logging

/// Wraps the app's log handler and replaces a secret by `***` in every message and metadata value.
///
/// The Seoul Open Data API takes its key as a path segment (`/{KEY}/json/…`), which Core's
/// `Redactor` (query items, headers, user-info) cannot know is secret; with `--verbose` the HTTP
/// client logs each request's URL. The live importer's client logs through this handler.
public struct KeyRedactingLogHandler: LogHandler {
    var wrapped: any LogHandler
    let secret: String

    public init(wrapping handler: any LogHandler, hiding secret: String) {
        wrapped = handler
        self.secret = secret
    }

    /// A logger labelled `label` that hides `secret`, over the handler the logging system would make.
    public static func logger(label: String, hiding secret: String) -> Logger {
        let base = Logger(label: label).handler
        return Logger(label: label) { _ in KeyRedactingLogHandler(wrapping: base, hiding: secret) }
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = "\(scrub(event.message.description))"
        event.metadata = event.metadata?.mapValues(scrub)
        wrapped.log(event: event)
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue.map(scrub) }
    }

    public var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue.mapValues(scrub) }
    }

    public var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    func scrub(_ text: String) -> String {
        secret.isEmpty ? text : text.replacingOccurrences(of: secret, with: "***")
    }

    func scrub(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(scrub(text))
        case .stringConvertible(let convertible): .string(scrub(convertible.description))
        case .dictionary(let dictionary): .dictionary(dictionary.mapValues(scrub))
        case .array(let array): .array(array.map(scrub))
        }
    }
}
