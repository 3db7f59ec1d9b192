import ArchiveDomain
import ArchiveFeature
import ArchiveInterface
import ArgumentParser
import Foundation
import SharedKit
import SwiftCSV
import Testing

@Suite("Export")
struct ExportTests {
    /// Tickets whose text needs every kind of CSV quoting.
    static func harnessWithAwkwardTickets() async throws -> ArchiveHarness {
        let harness = try ArchiveHarness(ticketIDs: ["t-1", "t-2", "t-3"])
        try await harness.importSample()
        _ = try await harness.service.add(
            eventID: try await harness.eventID("연극 '햄릿'").rawValue, rating: 5,
            memo: "1막이 길었다, 그래도 \"명연기\"\n2막은 최고")
        _ = try await harness.service.addManual(
            ManualTicket(
                title: "콘서트 \"밤, 그리고 서울\"", category: "콘서트", district: "마포구", isFree: true,
                attendedOn: ArchiveHarness.day("2026-10-03"), rating: nil, memo: " 앞뒤 공백 유지? "))
        _ = try await harness.service.addManual(
            ManualTicket(
                title: "Plain ASCII show", category: "연극", district: "종로구", isFree: false,
                attendedOn: ArchiveHarness.day("2026-09-01"), rating: 3))
        return harness
    }

    @Test func csvRoundTripsThroughAnIndependentParser() async throws {
        let harness = try await Self.harnessWithAwkwardTickets()
        let document = try await harness.service.export(.csv)
        #expect(document.ticketCount == 3)
        #expect(document.text.hasPrefix("id,event_id,title,category,district,place,audience,free,attended_on,rating,memo,created_at\r\n"))
        #expect(document.text.hasSuffix("\r\n"))
        let parsed = try EnumeratedCSV(string: document.text, delimiter: .comma)
        #expect(parsed.header == TicketExport.header)
        let expected = try await harness.service.list().map(TicketRecord.init)
        let records = try parsed.rows.map { cells in
            TicketRecord(
                id: cells[0], eventID: cells[1].isEmpty ? nil : cells[1], title: cells[2], category: cells[3], district: cells[4],
                place: cells[5], audience: cells[6], free: cells[7] == "true", attendedOn: cells[8], rating: Int(cells[9]),
                memo: cells[10].isEmpty ? nil : cells[10], createdAt: try Date(cells[11], strategy: .iso8601))
        }
        #expect(records == expected)
        #expect(records.first?.memo == "1막이 길었다, 그래도 \"명연기\"\n2막은 최고")
    }

    @Test func fieldsAreQuotedByRFC4180() async throws {
        let harness = try await Self.harnessWithAwkwardTickets()
        let text = try await harness.service.export(.csv).text
        #expect(text.contains(",\"1막이 길었다, 그래도 \"\"명연기\"\"\n2막은 최고\","))
        #expect(text.contains("t-2,,\"콘서트 \"\"밤, 그리고 서울\"\"\",콘서트,마포구,,,true,2026-10-03,,앞뒤 공백 유지?,"))
        #expect(text.contains("t-3,,Plain ASCII show,연극,종로구,,,false,2026-09-01,3,,2026-11-23T03:00:00Z\r\n"))
    }

    @Test("a cell that starts like a formula is written as text in CSV (OWASP), and exactly in JSON")
    func formulaCellsAreNeutralizedInCSV() async throws {
        let harness = try ArchiveHarness(ticketIDs: ["t-1", "t-2", "t-3", "t-4", "t-5"])
        let hostile = [
            "=HYPERLINK(\"https://evil.example\",\"click\")", "+1+2", "-2+3", "@SUM(A1:A9)", "=cmd|' /C calc'!A0",
        ]
        for (index, title) in hostile.enumerated() {
            _ = try await harness.service.addManual(
                ManualTicket(
                    title: title, category: "연극", district: "종로구", isFree: false,
                    attendedOn: ArchiveHarness.day("2026-09-0\(index + 1)"), rating: nil, memo: "=1+1"))
        }
        let csv = try await harness.service.export(.csv).text
        let parsed = try EnumeratedCSV(string: csv, delimiter: .comma)
        let titles = Set(parsed.rows.map { $0[2] })
        #expect(titles == Set(hostile.map { "'" + $0 }))
        #expect(parsed.rows.allSatisfy { $0[10] == "'=1+1" })
        for row in parsed.rows {
            for cell in row {
                #expect(cell.first.map { !"=+-@\t\r".contains($0) } ?? true, "a formula-leading cell: \(cell)")
            }
        }
        let json = try await harness.service.export(.json).text
        #expect(json.contains(#""memo" : "=1+1""#))
    }

    @Test func jsonRoundTrips() async throws {
        let harness = try await Self.harnessWithAwkwardTickets()
        let text = try await harness.run(["export", "--format", "json"])
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let decoded = try decoder.decode([TicketRecord].self, from: Data(text.utf8))
        #expect(decoded == (try await harness.service.list().map(TicketRecord.init)))
        #expect(decoded.first?.eventID == (try await harness.eventID("연극 '햄릿'")).rawValue)
        #expect(text.contains("\"event_id\" : null"))
    }

    @Test func aFileIsWrittenAtomicallyAndOwnerOnly() async throws {
        let harness = try await Self.harnessWithAwkwardTickets()
        let folder = try ArchiveHarness.temporaryFolder()
        let path = try folder.file("tickets.csv", "old content that must be replaced")
        let message = try await harness.run(["export", "--format", "csv", "--output", path])
        #expect(message == "Exported 3 tickets as CSV to \(path).\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == (try await harness.service.export(.csv).text))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["tickets.csv"])

        let json = try JSONSerialization.jsonObject(
            with: Data(try await harness.run(["export", "--format", "json", "--output", path], json: true).utf8))
        #expect((json as? [String: Any])?["tickets"] as? Int == 3)

        let nowhere = folder.url.appendingPathComponent("missing/tickets.csv").path
        await #expect {
            try await harness.run(["export", "--format", "csv", "--output", nowhere])
        } throws: { error in
            guard case .cannotWrite(let failed, let reason)? = error as? ArchiveError else { return false }
            return failed == nowhere && reason.hasSuffix("No such file or directory") && (error as? ArchiveError)?.exitStatus == .ioError
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["tickets.csv"])
    }

    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    @Test func bomPrefixesTheCSVWithAByteOrderMarkOnlyWhenAsked() async throws {
        let harness = try await Self.harnessWithAwkwardTickets()
        let plain = try await harness.run(["export", "--format", "csv"])
        #expect(!Array(plain.utf8).starts(with: Self.bom), "the default is unchanged: no byte-order mark")
        #expect(plain.hasPrefix("id,event_id,title,"))

        let marked = try await harness.run(["export", "--format", "csv", "--bom"])
        #expect(Array(marked.utf8).starts(with: Self.bom + Array("id,event_id,title,".utf8)))
        #expect(Array(marked.utf8).dropFirst(3).elementsEqual(plain.utf8), "the rest is the same CSV, Hangul included")
        #expect(marked.contains("콘서트 \"\"밤, 그리고 서울\"\""))

        let folder = try ArchiveHarness.temporaryFolder()
        let path = folder.url.appendingPathComponent("tickets.csv").path
        let message = try await harness.run(["export", "--format", "csv", "--bom", "--output", path])
        #expect(message == "Exported 3 tickets as CSV to \(path).\n")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.starts(with: Self.bom + Array("id,".utf8)))
        #expect(bytes.count == plain.utf8.count + 3)
        // The file written without --bom starts with the header itself.
        _ = try await harness.run(["export", "--format", "csv", "--output", path])
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))).starts(with: Array("id,".utf8)))
    }

    @Test func bomGoesWithCSVOnly() throws {
        #expect {
            _ = try ArchiveCommand.parseAsRoot(["export", "--format", "json", "--bom"])
        } throws: { error in
            ArchiveCommand.exitCode(for: error).rawValue == ExitStatus.usage.rawValue
                && ArchiveCommand.message(for: error) == "--bom goes with --format csv: JSON never starts with a byte-order mark."
        }
        #expect {
            var parsed = try ArchiveCommand.parseAsRoot(["export", "--help"])
            try parsed.run()
        } throws: { error in
            // The message is wrapped: compare words.
            let help = ArchiveCommand.fullMessage(for: error).split(whereSeparator: \.isWhitespace).joined(separator: " ")
            return help.contains("--bom") && help.contains("Excel") && help.contains("EF BB BF")
        }
    }

    @Test func noTicketsExportsAHeaderOrAnEmptyList() async throws {
        let harness = try ArchiveHarness()
        #expect(
            try await harness.run(["export", "--format", "csv"])
                == "id,event_id,title,category,district,place,audience,free,attended_on,rating,memo,created_at\r\n")
        #expect(try await harness.run(["export", "--format", "json"]) == "[\n\n]\n")
    }
}
