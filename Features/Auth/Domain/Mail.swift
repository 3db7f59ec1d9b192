import Foundation
import Registry

/// One e-mail.
public struct Mail: Sendable, Equatable {
    /// What a mail is for (the outbox names its files after it: `…-verify.eml`, `…-reset.eml`).
    public enum Purpose: String, Sendable, Equatable {
        case verification = "verify"
        case passwordReset = "reset"
        case other = "mail"
    }

    public let to: String
    public let subject: String
    public let body: String
    public let purpose: Purpose

    public init(to: String, subject: String, body: String, purpose: Purpose = .other) {
        self.to = to
        self.subject = subject
        self.body = body
        self.purpose = purpose
    }
}

/// Sends mail. The embedded default writes `.eml` files to `$MOA_HOME/outbox/`.
public protocol MailSender: Sendable {
    /// Sends `mail`; returns where it went, for the person to find it (a file path, a message id).
    func send(_ mail: Mail) async throws -> String
}

public enum MailSenderKey: ServiceKey { public typealias Service = any MailSender }
