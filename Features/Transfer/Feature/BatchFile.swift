import Foundation
import SharedKit
import SwiftCSV
import TransferDomain

/// A batch file: a header row naming the columns (`from,to,amount` required, `memo` and
/// `idempotency_key` optional, in any order), then one transfer per row. Parsed with SwiftCSV; every
/// problem with the file itself names its line, and nothing runs unless the whole file is readable.
public struct BatchFile: Sendable, Equatable {
    public static let requiredColumns = ["from", "to", "amount"]
    public static let optionalColumns = ["memo", "idempotency_key"]

    /// The rows to send, in file order (blank lines skipped).
    public let rows: [BatchRow]

    /// Reads and parses the file at `path`.
    public static func load(path: String) throws(BatchFileError) -> BatchFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .missing(path: path) }
        guard !isDirectory.boolValue else { throw .unreadable(path: path, reason: "it is a folder") }
        // A file, or a pipe (`<(…)`); a device such as /dev/null or /dev/zero is no batch.
        let type = (try? FileManager.default.attributesOfItem(atPath: path)[.type]) as? FileAttributeType
        guard type != .typeCharacterSpecial, type != .typeBlockSpecial, type != .typeSocket else {
            throw .unreadable(path: path, reason: "it is a device or a socket, not a file")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .unreadable(path: path, reason: "you do not have permission to read it")
        }
        let data: Data
        do {
            if let handle = FileHandle(forReadingAtPath: path) {
                defer { try? handle.close() }
                data = try handle.readToEnd() ?? Data()
            } else {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        } catch {
            throw .unreadable(path: path, reason: "reading it failed (\((error as NSError).localizedDescription))")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw .notText(path: path) }
        return try parse(text, file: path)
    }

    /// Parses the text of a batch file (`file` names it in errors).
    public static func parse(_ text: String, file: String? = nil) throws(BatchFileError) -> BatchFile {
        if let line = unclosedQuoteLine(text) {
            throw .malformed(file: file, line: line, reason: "a quoted field is not closed")
        }
        // SwiftCSV drops an empty last field when the text does not end with a line break.
        let terminated = text.last?.isNewline == false ? text + "\n" : text
        let records = try records(of: terminated, file: file)
        guard let header = records.first else {
            throw .malformed(file: file, line: 1, reason: "the file is empty: it needs a header row \(expectedHeader)")
        }
        let columns = try columns(header.fields, line: header.line, file: file)
        var rows: [BatchRow] = []
        for record in records.dropFirst() {
            guard record.fields.count == header.fields.count else {
                throw .malformed(
                    file: file, line: record.line,
                    reason:
                        "it has \(record.fields.count) field\(record.fields.count == 1 ? "" : "s") but the header has \(header.fields.count)"
                )
            }
            func field(_ name: String) -> String? { columns[name].map { record.fields[$0] } }
            rows.append(
                BatchRow(
                    line: record.line, from: field("from") ?? "", to: field("to") ?? "", amount: field("amount") ?? "",
                    memo: field("memo"), idempotencyKey: field("idempotency_key")))
        }
        return BatchFile(rows: rows)
    }

    static var expectedHeader: String { (requiredColumns + optionalColumns).joined(separator: ",") }

    /// Every non-blank record with the line it starts on, fields trimmed.
    private static func records(of text: String, file: String?) throws(BatchFileError) -> [(line: Int, fields: [String])] {
        final class Collector {
            var records: [(line: Int, fields: [String])] = []
            var nextLine = 1
        }
        let collector = Collector()
        do {
            // The header is parsed by `CSV` itself; `enumerateAsArray` then yields every record, header included.
            let csv = try EnumeratedCSV(string: text, delimiter: .comma, loadColumns: false, rowLimit: 0)
            try csv.enumerateAsArray(startAt: 0, rowLimit: nil) { fields in
                let line = collector.nextLine
                // A record spans one line plus the line breaks inside its quoted fields.
                collector.nextLine += 1 + fields.reduce(0) { $0 + $1.filter(\.isNewline).count }
                let trimmed = fields.map { String($0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()) }
                if !trimmed.allSatisfy(\.isEmpty) { collector.records.append((line, trimmed)) }
            }
        } catch let error as CSVParseError {
            switch error {
            case .quotation:
                throw .malformed(
                    file: file, line: collector.nextLine,
                    reason: "a quotation mark is misplaced (quote the whole field, and double a quote inside it)")
            case .generic:
                throw .malformed(file: file, line: collector.nextLine, reason: "it is not valid CSV")
            }
        } catch {
            throw .malformed(file: file, line: collector.nextLine, reason: "it is not valid CSV")
        }
        return collector.records
    }

    /// Column name → index, after checking the header.
    private static func columns(_ header: [String], line: Int, file: String?) throws(BatchFileError) -> [String: Int] {
        var columns: [String: Int] = [:]
        for (index, name) in header.enumerated() {
            let key = name.lowercased()
            guard requiredColumns.contains(key) || optionalColumns.contains(key) else {
                throw .malformed(file: file, line: line, reason: "the header has an unknown column “\(name)”: expected \(expectedHeader)")
            }
            guard columns[key] == nil else {
                throw .malformed(file: file, line: line, reason: "the header names the column “\(key)” twice")
            }
            columns[key] = index
        }
        let missing = requiredColumns.filter { columns[$0] == nil }
        guard missing.isEmpty else {
            throw .malformed(
                file: file, line: line,
                reason: "the header row lacks \(missing.joined(separator: ", ")): expected \(expectedHeader)")
        }
        return columns
    }

    /// The line where a quoted field opens and never closes, if one does (SwiftCSV accepts it silently).
    static func unclosedQuoteLine(_ text: String) -> Int? {
        var line = 1
        var inQuotes = false
        var openedOn = 1
        for character in text {
            if character == "\"" {
                inQuotes.toggle()
                if inQuotes { openedOn = line }
            } else if character.isNewline {
                line += 1
            }
        }
        return inQuotes ? openedOn : nil
    }
}

/// Why a batch file cannot be run. Nothing of it ran.
public enum BatchFileError: Error, UserFacingError, Equatable {
    case missing(path: String)
    case unreadable(path: String, reason: String)
    case notText(path: String)
    case malformed(file: String?, line: Int, reason: String)

    public var message: String {
        switch self {
        case .missing(let path): "There is no batch file at \(path)."
        case .unreadable(let path, let reason): "The batch file \(path) cannot be read: \(reason)."
        case .notText(let path): "The batch file \(path) is not UTF-8 text."
        case .malformed(let file, let line, let reason): "\(file.map { "\($0), line" } ?? "Line") \(line): \(reason)."
        }
    }

    public var hint: String? {
        switch self {
        case .missing, .unreadable: nil
        case .notText, .malformed: "Nothing was sent. A batch file starts with the header row \(BatchFile.expectedHeader)."
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .missing, .unreadable: .noInput
        case .notText, .malformed: .dataError
        }
    }
}
