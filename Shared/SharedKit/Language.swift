/// The language of the app's user-facing strings (the `display.language` setting).
public enum AppLanguage: String, Sendable, CaseIterable, Codable {
    case en
    case ko
}

/// A user-facing string that exists in both languages.
public struct LocalizedText: Sendable, Hashable {
    public let en: String
    public let ko: String

    public init(en: String, ko: String) {
        self.en = en
        self.ko = ko
    }

    public func callAsFunction(_ language: AppLanguage) -> String {
        switch language {
        case .en: en
        case .ko: ko
        }
    }
}

/// An error whose message also exists in Korean. `message` stays the English one (logs, tests).
public protocol LocalizedUserFacingError: UserFacingError {
    var localizedMessage: LocalizedText { get }
}

extension UserFacingError {
    /// The message in `language` when the error has it, else the English one.
    public func message(in language: AppLanguage) -> String {
        (self as? any LocalizedUserFacingError)?.localizedMessage(language) ?? message
    }
}
