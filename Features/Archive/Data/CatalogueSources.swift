import ArchiveDomain
import Foundation
import Networking

/// Files and the live API, as import sources.
public struct ArchiveSources: CatalogueSources {
    private let client: (any HTTPClient)?

    /// - Parameter client: talks to ``SeoulOpenAPISource/baseURL`` (a `StubHTTPClient` in tests); `nil`:
    ///   URLSession, told to mask the key of each import (it travels in the URL's path).
    public init(client: (any HTTPClient)? = nil) {
        self.client = client
    }

    public func file(path: String) -> any CatalogueSource { FileCatalogueSource(path: path) }

    public func sample() -> any CatalogueSource { InMemoryCatalogueSource.sample }

    public func seoulOpenAPI(key: String, from: Int, to: Int?) -> any CatalogueSource {
        let trimmed = key.trimmingCharacters(in: .whitespacesAndNewlines)
        // The key travels in the URL's path: the client masks it in its logs and errors.
        let client = client ?? URLSessionHTTPClient(baseURL: SeoulOpenAPISource.baseURL, secrets: [trimmed])
        return SeoulOpenAPISource(client: client, key: trimmed, from: from, to: to)
    }
}

/// A `culturalEventInfo` JSON file. It is mapped into memory rather than read (a 100 MB download
/// costs address space, not a copy), decoded once, then its rows are handed to the importer.
public struct FileCatalogueSource: CatalogueSource {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public var name: String { path }

    public func rows(progress: @escaping @Sendable (ImportProgress) -> Void) async throws -> [RawEvent?] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw ArchiveImportError.fileNotFound(path) }
        guard !isDirectory.boolValue else { throw ArchiveImportError.unreadable(path, reason: "it is a folder") }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw ArchiveImportError.unreadable(path, reason: Self.reason(error))
        }
        return try await InMemoryCatalogueSource(name: path, data: data).rows(progress: progress)
    }

    static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let posix = error.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        if error.domain == NSCocoaErrorDomain, error.code == NSFileReadNoPermissionError { return "permission denied" }
        return error.localizedDescription
    }
}

/// `culturalEventInfo` JSON already in memory (the bundled sample, a test fixture, a mapped file).
public struct InMemoryCatalogueSource: CatalogueSource {
    public let name: String
    let data: Data

    public init(name: String, data: Data) {
        self.name = name
        self.data = data
    }

    /// The bundled sample catalogue (``ArchiveSamples/seoulEventsJSON``).
    public static let sample = InMemoryCatalogueSource(name: "bundled sample", data: Data(ArchiveSamples.seoulEventsJSON.utf8))

    public func rows(progress: @escaping @Sendable (ImportProgress) -> Void) async throws -> [RawEvent?] {
        let page: CatalogueJSON.Page
        do {
            page = try CatalogueJSON.decodePage(data)
        } catch {
            switch error {
            case .syntax(let syntax):
                throw ArchiveImportError.malformedJSON(
                    name, line: syntax.line, column: syntax.column, byteOffset: syntax.offset, detail: syntax.detail)
            case .shape(let detail):
                throw ArchiveImportError.notCatalogue(name, detail: detail)
            }
        }
        guard let rows = page.rows else {
            if let code = page.resultCode, code != "INFO-000" {
                throw ArchiveImportError.notCatalogue(
                    name, detail: "it holds the API's answer \(code) (\(page.resultMessage ?? "no message")), not rows")
            }
            throw ArchiveImportError.notCatalogue(name, detail: "there is no culturalEventInfo.row list")
        }
        progress(.read(rows: rows.count))
        return rows
    }
}

/// The live `culturalEventInfo` service of Seoul Open Data:
/// `http://openapi.seoul.go.kr:8088/{KEY}/json/culturalEventInfo/{START}/{END}/`, at most 1,000
/// rows a request. Every page is fetched before anything is written, so a failure on page 3
/// imports nothing. The key travels in the path (the service's design, plain HTTP): it is never
/// put in a message.
public struct SeoulOpenAPISource: CatalogueSource {
    /// `http://openapi.seoul.go.kr:8088` (the literal is valid; the fallback only satisfies the optional).
    public static let baseURL = URL(string: "http://openapi.seoul.go.kr:8088") ?? URL(fileURLWithPath: "/")
    public static let host = "openapi.seoul.go.kr:8088"
    public static let defaultPageSize = 1000
    public static let timeout: TimeInterval = 30

    let client: any HTTPClient
    let key: String
    let from: Int
    let to: Int?
    let pageSize: Int

    /// - Parameter pageSize: rows per request (the service allows at most 1,000).
    public init(client: any HTTPClient, key: String, from: Int = 1, to: Int? = nil, pageSize: Int = SeoulOpenAPISource.defaultPageSize) {
        self.client = client
        self.key = key.trimmingCharacters(in: .whitespacesAndNewlines)
        self.from = from
        self.to = to
        self.pageSize = min(max(pageSize, 1), Self.defaultPageSize)
    }

    public var name: String {
        "Seoul Open Data API, rows \(from)–\(to.map(String.init) ?? "end")"
    }

    public func rows(progress: @escaping @Sendable (ImportProgress) -> Void) async throws -> [RawEvent?] {
        guard !key.isEmpty else { throw ArchiveImportError.apiKeyMissing }
        var rows: [RawEvent?] = []
        var start = from
        var last = to
        while last.map({ start <= $0 }) ?? true {
            let end = min(start + pageSize - 1, last ?? Int.max)
            let page = try await fetch(start, end)
            switch page.resultCode {
            case nil, "INFO-000": break
            case "INFO-200": return rows // no (more) data
            case let code?: throw ArchiveImportError.apiRefused(code: code, message: scrub(page.resultMessage ?? "no message"))
            }
            guard let pageRows = page.rows else { throw ArchiveImportError.apiBadResponse("the page has no row list") }
            if let total = page.total { last = min(last ?? total, total) }
            rows += pageRows
            let wanted = max(0, (last ?? (start + pageRows.count - 1)) - from + 1)
            progress(.fetched(rows: rows.count, of: max(wanted, rows.count)))
            guard !pageRows.isEmpty, last != nil else { break }
            start = end + 1
        }
        return rows
    }

    private func fetch(_ start: Int, _ end: Int) async throws -> CatalogueJSON.Page {
        let endpoint = Endpoint(
            .get, pathSegments: [key, "json", "culturalEventInfo", String(start), String(end)],
            headers: ["Accept": "application/json"], timeout: Self.timeout)
        let response: HTTPResponse
        do {
            response = try await client.send(endpoint)
        } catch {
            switch error {
            case .offline: throw ArchiveImportError.apiUnreachable(host: Self.host)
            case .timedOut: throw ArchiveImportError.apiTimedOut(host: Self.host, seconds: Int(Self.timeout))
            default: throw ArchiveImportError.apiFailed(scrub(error.message))
            }
        }
        guard response.isSuccess else { throw ArchiveImportError.apiStatus(response.status) }
        do {
            return try CatalogueJSON.decodePage(response.body)
        } catch {
            switch error {
            case .syntax(let syntax):
                throw ArchiveImportError.apiBadResponse("not JSON (\(syntax.detail) at byte \(syntax.offset) of rows \(start)–\(end))")
            case .shape(let detail): throw ArchiveImportError.apiBadResponse(detail)
            }
        }
    }

    /// `text` without the key.
    private func scrub(_ text: String) -> String {
        key.isEmpty ? text : text.replacingOccurrences(of: key, with: "***")
    }
}
