import AuthDomain
import Foundation
import SharedKit
import Storage

/// The outbox folder could not be written.
public struct OutboxError: UserFacingError, Equatable {
    public let folder: String
    public let reason: String

    public var message: String { "Cannot write the e-mail to the outbox folder \(folder): \(reason)." }
    public var hint: String? { "Check the folder's permissions, or choose another home with --home or MOA_HOME." }
    public var exitStatus: ExitStatus { .ioError }
}

/// ``MailSender`` that writes each mail as an RFC 5322 `.eml` file (owner-only) into an outbox folder.
///
/// File names sort by time and end with the mail's purpose: `20260101-000000-1a2b3c4d-verify.eml`, `…-reset.eml`.
public struct OutboxMailSender: MailSender {
    public let folder: URL
    private let clock: any WallClock

    public static let from = "Moa <no-reply@moa.local>"

    public init(folder: URL, clock: any WallClock = SystemWallClock()) {
        self.folder = folder
        self.clock = clock
    }

    /// Writes the mail atomically; returns the file's path.
    public func send(_ mail: Mail) async throws -> String {
        let now = clock.now()
        let random = RandomBytes.make(4).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        let file = folder.appendingPathComponent("\(Self.fileStamp(now))-\(random)-\(mail.purpose.rawValue).eml")
        let message = Self.render(mail, date: now, messageID: "<\(UUID().uuidString.lowercased())@moa.local>")
        do throws(AtomicFile.Failure) {
            try AtomicFile.ensureFolder(folder)
            try AtomicFile.save(Data(message.utf8), to: file, mode: 0o600)
        } catch {
            throw OutboxError(folder: folder.path, reason: error.reason)
        }
        return file.path
    }

    // MARK: Rendering

    /// The whole message with CRLF line endings.
    static func render(_ mail: Mail, date: Date, messageID: String) -> String {
        let headers = [
            "From: \(from)",
            "To: \(mail.to.filter { !$0.isNewline && $0 != "\0" })",
            "Subject: \(encodeHeaderText(mail.subject))",
            "Date: \(rfc5322Date(date))",
            "Message-ID: \(messageID)",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit",
        ]
        var body = mail.body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        if !body.hasSuffix("\n") { body += "\n" }
        return headers.joined(separator: "\r\n") + "\r\n\r\n" + body.replacingOccurrences(of: "\n", with: "\r\n")
    }

    /// Printable ASCII as is; anything else as RFC 2047 encoded words (UTF-8, base64), folded.
    static func encodeHeaderText(_ text: String) -> String {
        guard !text.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else { return text }
        // 45 bytes of UTF-8 → 60 base64 characters: each encoded word stays within 75 characters.
        var words: [String] = []
        var chunk = ""
        for character in text {
            if chunk.utf8.count + String(character).utf8.count > 45, !chunk.isEmpty {
                words.append(chunk)
                chunk = ""
            }
            chunk.append(character)
        }
        if !chunk.isEmpty { words.append(chunk) }
        return words.map { "=?utf-8?B?\(Data($0.utf8).base64EncodedString())?=" }.joined(separator: "\r\n ")
    }

    /// `Thu, 01 Jan 2026 00:00:00 +0000`
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }

    /// `20260101-000000` in UTC.
    static func fileStamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
