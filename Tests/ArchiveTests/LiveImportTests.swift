import ArchiveData
import ArchiveDomain
import ArchiveInterface
import Foundation
import Networking
import SharedKit
import Testing

@Suite("Live import (Seoul Open Data API, against a stub client)")
struct LiveImportTests {
    static func page(total: Int, _ rows: [String]) -> HTTPResponse {
        .json(
            """
            {"culturalEventInfo": {"list_total_count": \(total), "RESULT": {"CODE": "INFO-000", "MESSAGE": "정상 처리되었습니다"},
             "row": [\(rows.joined(separator: ","))]}}
            """)
    }

    @Test func pagesAreFetchedByStartAndEndIndexThenWrittenTogether() async throws {
        let stub = StubHTTPClient([
            .success(Self.page(total: 3, [row("첫째 공연", start: "2026-12-01"), row("둘째 공연", start: "2026-12-02")])),
            .success(Self.page(total: 3, [row("셋째 공연", start: "2026-12-03")])),
        ])
        let harness = try ArchiveHarness(http: stub)
        let source = SeoulOpenAPISource(client: stub, key: "sample-key", pageSize: 2)
        #expect(source.name == "Seoul Open Data API, rows 1–end")
        let report = try await harness.root.importer.run(source)
        #expect((report.rows, report.new) == (3, 3))
        #expect(
            stub.requests.map(\.pathSegments) == [
                ["sample-key", "json", "culturalEventInfo", "1", "2"],
                ["sample-key", "json", "culturalEventInfo", "3", "3"], // the announced total (3) bounds the last page
            ])
        #expect(stub.requests.allSatisfy { $0.timeout == SeoulOpenAPISource.timeout })
        #expect(
            try Endpoint(.get, pathSegments: stub.requests[0].pathSegments).url(relativeTo: SeoulOpenAPISource.baseURL).absoluteString
                == "http://openapi.seoul.go.kr:8088/sample-key/json/culturalEventInfo/1/2")
    }

    @Test func fromAndToBoundTheRowsAsked() async throws {
        let stub = StubHTTPClient([.success(Self.page(total: 5000, [row("가", start: "2026-12-01"), row("나", start: "2026-12-02")]))])
        let harness = try ArchiveHarness(http: stub)
        let output = try await harness.run(["import", "--api-key", "k", "--from", "11", "--to", "12"], json: true)
        #expect(stub.requests.map(\.pathSegments) == [["k", "json", "culturalEventInfo", "11", "12"]])
        let decoded = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        #expect(decoded?["new"] as? Int == 2)
        #expect(decoded?["source"] as? String == "Seoul Open Data API, rows 11–12")
    }

    @Test func aFailureOnTheSecondPageImportsNothing() async throws {
        let stub = StubHTTPClient([
            .success(Self.page(total: 3, [row("첫째 공연", start: "2026-12-01"), row("둘째 공연", start: "2026-12-02")])),
            .failure(.timedOut),
        ])
        let harness = try ArchiveHarness(http: stub)
        await #expect(throws: ArchiveImportError.apiTimedOut(host: "openapi.seoul.go.kr:8088", seconds: 30)) {
            try await harness.root.importer.run(SeoulOpenAPISource(client: stub, key: "k", pageSize: 2))
        }
        #expect(try harness.eventCount() == 0)
        #expect(ArchiveImportError.apiTimedOut(host: "h", seconds: 30).exitStatus == .temporaryFailure)
    }

    @Test func offlineSaysSoClearly() async throws {
        let stub = StubHTTPClient([.failure(.offline)])
        let harness = try ArchiveHarness(http: stub)
        await #expect {
            try await harness.run(["import", "--api-key", "secret-key-123"])
        } throws: { error in
            guard let error = error as? ArchiveImportError, error == .apiUnreachable(host: "openapi.seoul.go.kr:8088") else { return false }
            return error.exitStatus == .unavailable && error.message.contains("network is offline")
                && error.hint?.contains("moa archive import FILE.json") == true
        }
        #expect(try harness.eventCount() == 0)
    }

    @Test func theServicesErrorCodesBecomeMessagesWithoutTheKey() async throws {
        let stub = StubHTTPClient([
            .success(.json(#"{"RESULT": {"CODE": "INFO-100", "MESSAGE": "인증키가 유효하지 않습니다. 인증키가 없는 경우, 열린 데이터 광장 홈페이지에서 인증키를 신청하십시오."}}"#)),
            .failure(.transport("TLS failure for http://openapi.seoul.go.kr:8088/secret-key-123/json/culturalEventInfo/1/1000")),
            .success(HTTPResponse(status: 503)),
            .success(.json("<html>oops</html>")),
        ])
        let harness = try ArchiveHarness(http: stub)
        let source = SeoulOpenAPISource(client: stub, key: "secret-key-123")
        await #expect {
            try await harness.root.importer.run(source)
        } throws: { error in
            guard case .apiRefused(let code, let message)? = error as? ArchiveImportError else { return false }
            return code == "INFO-100" && message.hasPrefix("인증키가 유효하지 않습니다") && (error as? ArchiveImportError)?.exitStatus == .noPermission
        }
        await #expect {
            try await harness.root.importer.run(source)
        } throws: { error in
            guard case .apiFailed(let detail)? = error as? ArchiveImportError else { return false }
            return !detail.contains("secret-key-123") && detail.contains("***")
        }
        await #expect(throws: ArchiveImportError.apiStatus(503)) { try await harness.root.importer.run(source) }
        await #expect {
            try await harness.root.importer.run(source)
        } throws: { error in
            guard case .apiBadResponse(let detail)? = error as? ArchiveImportError else { return false }
            return detail.contains("not JSON")
        }
        #expect(try harness.eventCount() == 0)
    }

    @Test func noMoreDataEndsTheImport() async throws {
        let stub = StubHTTPClient([
            .success(Self.page(total: 2, [row("가", start: "2026-12-01"), row("나", start: "2026-12-02")]))
        ])
        let harness = try ArchiveHarness(http: stub)
        let report = try await harness.root.importer.run(SeoulOpenAPISource(client: stub, key: "k", to: 5000, pageSize: 2))
        #expect(report.new == 2)
        #expect(stub.requests.count == 1) // the announced total (2) is reached on the first page

        let empty = StubHTTPClient([
            .success(.json(#"{"culturalEventInfo": {"RESULT": {"CODE": "INFO-200", "MESSAGE": "해당하는 데이터가 없습니다."}}}"#))
        ])
        let none = try await harness.root.importer.run(SeoulOpenAPISource(client: empty, key: "k", from: 9000))
        #expect((none.rows, none.new) == (0, 0))
    }

    @Test func badRowRangesAndAnEmptyKeyAreRefused() async throws {
        let harness = try ArchiveHarness()
        await #expect(throws: ArchiveError.invalidRowRange(from: 5, to: 2)) {
            try await harness.run(["import", "--api-key", "k", "--from", "5", "--to", "2"])
        }
        await #expect(throws: ArchiveError.invalidRowRange(from: 0, to: nil)) {
            try await harness.run(["import", "--api-key", "k", "--from", "0"])
        }
        await #expect(throws: ArchiveImportError.apiKeyMissing) { try await harness.run(["import", "--api-key", "  "]) }
        #expect(harness.http.requests.isEmpty)
    }
}
