import ArchiveData
import ArchiveDomain
import ArchiveInterface
import Foundation
import GRDB
import SharedKit
import Storage
import Testing

@Suite("Catalogue import")
struct ImportTests {
    @Test func theSampleImportsWithHangulMissingFieldsAndDuplicatesCountedRowByRow() async throws {
        let harness = try ArchiveHarness()
        let report = try await harness.importSample()
        #expect(report.source == "bundled sample")
        #expect(report.rows == 13)
        #expect((report.new, report.updated, report.unchanged) == (10, 0, 0))
        #expect(
            report.skipped == [
                SkippedRow(row: 11, title: "뮤지컬 〈명성황후〉 30주년 기념 공연", reason: .duplicate(ofRow: 1)),
                SkippedRow(row: 12, title: nil, reason: .noTitle),
                SkippedRow(row: 13, title: "남산골 한옥마을 전통혼례 재현", reason: .invalidStartDate("미정")),
            ])
        #expect(report.catalogueCount == 10)
        #expect(try harness.eventCount() == 10)

        // Row 10: no GUNAME, no IS_FREE (USE_FEE 무료 → free), an empty MAIN_IMG.
        let ddp = try #require(try await harness.root.catalogue.event(id: try await harness.eventID("DDP 디자인 전시 〈서울의 색〉")))
        #expect(ddp.district == "")
        #expect(ddp.isFree)
        #expect(ddp.imageURL == nil)
        #expect(ddp.startsOn == ArchiveHarness.day("2026-10-01") && ddp.endsOn == ArchiveHarness.day("2026-12-31"))
        // An HTML entity in the title is decoded; numbers where strings are expected are fine.
        let hamlet = try #require(try await harness.root.catalogue.event(id: try await harness.eventID("연극 '햄릿'")))
        #expect(hamlet.audience == "14세 이상" && hamlet.fee == "전석 50,000원" && !hamlet.isFree)
        #expect(hamlet.link?.absoluteString == "https://www.arko.or.kr/theater")
        #expect(try await harness.eventID("〈한국 근현대 회화 100선〉").rawValue.count == 16)
    }

    @Test func reimportingChangesNothingAndChangedRowsAreUpdatedNotDuplicated() async throws {
        let harness = try ArchiveHarness()
        let first = try await harness.importJSON(
            catalogueJSON([
                row("서울 재즈 나이트", category: "콘서트", district: "마포구", place: "마포아트센터", start: "2026-12-05", free: false, fee: "30,000원"),
                row("겨울 사진전", start: "2026-12-01", end: "2027-01-31"),
            ]))
        #expect((first.new, first.updated, first.unchanged) == (2, 0, 0))
        let id = try await harness.eventID("서울 재즈 나이트")

        let again = try await harness.importJSON(
            catalogueJSON([
                row("서울 재즈 나이트", category: "콘서트", district: "마포구", place: "마포아트센터", start: "2026-12-05", free: false, fee: "30,000원"),
                row("겨울 사진전", start: "2026-12-01", end: "2027-01-31"),
            ]))
        #expect((again.new, again.updated, again.unchanged, again.skipped.count) == (0, 0, 2, 0))

        // Same title, place and start date (whitespace and case aside): the same event, updated in place.
        let changed = try await harness.importJSON(
            catalogueJSON([
                row(
                    "서울  재즈 나이트 ", category: "콘서트", district: "마포구", place: "마포아트센터", start: "2026-12-05", end: "2026-12-06",
                    free: false, fee: "35,000원"),
                row("겨울 사진전", start: "2026-12-01", end: "2027-01-31"),
                row("새해 타종 행사", category: "축제-전통/역사", district: "종로구", place: "보신각", start: "2026-12-31"),
            ]))
        #expect((changed.new, changed.updated, changed.unchanged) == (1, 1, 1))
        #expect(changed.catalogueCount == 3)
        #expect(try harness.eventCount() == 3)
        let updated = try #require(try await harness.root.catalogue.event(id: id))
        #expect(updated.fee == "35,000원" && updated.endsOn == ArchiveHarness.day("2026-12-06"))
        #expect(updated.title == "서울 재즈 나이트")
    }

    @Test func theSampleTwiceIsAllUnchanged() async throws {
        let harness = try ArchiveHarness()
        try await harness.importSample()
        let again = try await harness.importSample()
        #expect((again.new, again.updated, again.unchanged, again.skipped.count) == (0, 0, 10, 3))
    }

    @Test func aMalformedFileSaysWhereAndLeavesTheDatabaseUntouched() async throws {
        let harness = try ArchiveHarness()
        try await harness.importSample()
        let before = try harness.database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM archive_events ORDER BY id").map(\.description)
        }
        let folder = try ArchiveHarness.temporaryFolder()
        // Line 4: a missing comma after the first row's object; the second row is valid and must not be written.
        let path = try folder.file(
            "broken.json",
            """
            {"culturalEventInfo": {"list_total_count": 2,
             "row": [
              {"TITLE": "첫 공연", "STRTDATE": "2026-12-01", "PLACE": "한 곳"}
              {"TITLE": "두 번째", "STRTDATE": "2026-12-02"}
             ]}}
            """)
        await #expect {
            try await harness.root.importer.run(FileCatalogueSource(path: path))
        } throws: { error in
            guard case .malformedJSON(let file, let line, let column, _, let detail)? = error as? ArchiveImportError else { return false }
            return file == path && line == 4 && column == 3 && detail.contains("expected ',' or ']'")
                && (error as? ArchiveImportError)?.exitStatus == .dataError
                && (error as? ArchiveImportError)?.message.contains("at line 4, column 3") == true
        }
        let after = try harness.database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM archive_events ORDER BY id").map(\.description)
        }
        #expect(after == before)
    }

    @Test(arguments: [
        ("{\"culturalEventInfo\": {\"row\": [", 1, 32, "unexpected end of file"),
        ("[\n  {\"TITLE\": \"가\" \"PLACE\": \"나\"}\n]", 2, 17, "unexpected character '\"' (expected ',' or '}')"),
        ("{\"row\": [{\"TITLE\": \"국악 한마당\", \"PLACE\": 남산}]}", 1, 39, "unexpected character '남'"),
        ("{'row': []}", 1, 2, "expected a quoted key"),
    ])
    func syntaxErrorsArePlacedByLineAndCharacterColumn(text: String, line: Int, column: Int, detail: String) async throws {
        let harness = try ArchiveHarness()
        await #expect {
            try await harness.importJSON(text)
        } throws: { error in
            guard case .malformedJSON(_, let foundLine, let foundColumn, _, let foundDetail)? = error as? ArchiveImportError else {
                return false
            }
            return foundLine == line && foundColumn == column && foundDetail.contains(detail)
        }
        #expect(try harness.eventCount() == 0)
    }

    @Test("10,000 nested arrays are refused where the nesting goes too deep, not at line 1, column 1")
    func deepNestingIsPlacedAndNamed() async throws {
        let harness = try ArchiveHarness()
        let text = "{\"row\":\n" + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}"
        await #expect {
            try await harness.importJSON(text)
        } throws: { error in
            guard case .malformedJSON(_, let line, let column, _, let detail)? = error as? ArchiveImportError else { return false }
            return line == 2 && column == 64 && detail == "arrays and objects nested more than 64 levels deep"
        }
        #expect(try harness.eventCount() == 0)
    }

    @Test("a title that is not UTF-8 is reported as such, where it is, and nothing is imported")
    func invalidUTF8IsPlacedAndNamed() async throws {
        let harness = try ArchiveHarness()
        var bytes = Array(#"{"row": [{"TITLE": "국악 "#.utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array(#"", "PLACE": "남산"}]}"#.utf8)
        await #expect {
            try await harness.root.importer.run(InMemoryCatalogueSource(name: "latin1.json", data: Data(bytes)))
        } throws: { error in
            guard case .malformedJSON(let file, let line, let column, _, let detail)? = error as? ArchiveImportError else { return false }
            return file == "latin1.json" && line == 1 && column == 24 && detail == "a string that is not valid UTF-8 (byte 0xFF)"
        }
        #expect(try harness.eventCount() == 0)
    }

    @Test("control and bidi characters in imported text are dropped, so no terminal ever sees them")
    func hostileCharactersAreCleanedOnImport() async throws {
        let harness = try ArchiveHarness()
        let title = #"b\u001b[31mred\u001b]0;pwned\u0007\u009b2J\u202eevil"#
        let report = try await harness.importJSON(
            """
            {"row": [{"CODENAME": "연극", "GUNAME": "종로구", "TITLE": "\(title)", "PLACE": "대학로\\u200f", "STRTDATE": "2026-11-10",
                      "END_DATE": "2026-12-10", "USE_FEE": "", "IS_FREE": "무료"}]}
            """)
        #expect(report.new == 1, "\(report)")
        let events = try await harness.root.catalogue.search(EventQuery(perPage: 10)).events
        #expect(events.map(\.title) == ["b[31mred]0;pwned2Jevil"])
        #expect(events.map(\.place) == ["대학로"])
    }

    @Test func aMissingFileOrAFolderIsNoInput() async throws {
        let harness = try ArchiveHarness()
        let folder = try ArchiveHarness.temporaryFolder()
        let missing = folder.url.appendingPathComponent("nope.json").path
        await #expect(throws: ArchiveImportError.fileNotFound(missing)) {
            try await harness.root.importer.run(FileCatalogueSource(path: missing))
        }
        #expect(ArchiveImportError.fileNotFound(missing).exitStatus == .noInput)
        await #expect(throws: ArchiveImportError.unreadable(folder.url.path, reason: "it is a folder")) {
            try await harness.root.importer.run(FileCatalogueSource(path: folder.url.path))
        }
    }

    @Test(arguments: [
        ("{\"events\": []}", "there is no culturalEventInfo.row list"),
        ("{\"culturalEventInfo\": {\"row\": {}}}", "expected a list at culturalEventInfo.row"),
        ("{\"RESULT\": {\"CODE\": \"INFO-100\", \"MESSAGE\": \"인증키가 유효하지 않습니다.\"}}", "the API's answer INFO-100"),
        ("42", "expected an object at the top level"),
    ])
    func jsonThatIsNotACatalogueIsDataError(text: String, detail: String) async throws {
        let harness = try ArchiveHarness()
        await #expect {
            try await harness.importJSON(text)
        } throws: { error in
            guard case .notCatalogue(_, let found)? = error as? ArchiveImportError else { return false }
            return found.contains(detail) && (error as? ArchiveImportError)?.exitStatus == .dataError
        }
    }

    @Test func everyBadRowIsSkippedWithItsReasonAndTheRestIsImported() async throws {
        let harness = try ArchiveHarness()
        let report = try await harness.importJSON(
            catalogueJSON([
                row("좋은 공연", start: "2026-12-01"),
                row("거꾸로 공연", start: "2026-12-10", end: "2026-12-01"),
                "42",
                "{\"TITLE\": \"날짜 없는 공연\", \"STRTDATE\": \"\"}",
                "{\"TITLE\": \"끝 날짜가 이상한 공연\", \"STRTDATE\": \"2026-12-01\", \"END_DATE\": \"언젠가\"}",
                "{\"TITLE\": \"   \", \"STRTDATE\": \"2026-12-01\"}",
                "{\"title\": \"DATE만 있는 공연\", \"date\": \"2026-12-24~2026-12-25\", \"place\": null, \"is_free\": \"무료\"}",
            ]))
        #expect((report.rows, report.new) == (7, 2))
        #expect(report.skipped.map(\.row) == [2, 3, 4, 5, 6])
        #expect(
            report.skipped.map(\.reason) == [
                .endBeforeStart(start: ArchiveHarness.day("2026-12-10"), end: ArchiveHarness.day("2026-12-01")), .notAnObject, .noStartDate,
                .invalidEndDate("언젠가"), .noTitle,
            ])
        let fromDate = try #require(try await harness.root.catalogue.event(id: try await harness.eventID("DATE만 있는 공연")))
        #expect(
            fromDate.startsOn == ArchiveHarness.day("2026-12-24") && fromDate.endsOn == ArchiveHarness.day("2026-12-25") && fromDate.isFree)
    }

    @Test func theDataPortalDownloadShapeWithLowercaseKeysIsAccepted() async throws {
        let harness = try ArchiveHarness()
        let report = try await harness.importJSON(
            """
            {"DESCRIPTION": {"TITLE": "공연명"}, "DATA": [
              {"codename": "국악", "guname": "중구", "title": "남산 국악 산책", "place": "서울남산국악당", "strtdate": "2026-12-12 00:00:00.0",
               "end_date": "2026-12-12 00:00:00.0", "is_free": "무료", "use_trgt": "누구나"}
            ]}
            """)
        #expect(report.new == 1)
        let event = try #require(try await harness.root.catalogue.event(id: try await harness.eventID("남산 국악 산책")))
        #expect(event.category == "국악" && event.district == "중구" && event.isFree)
    }

    @Test func aFailureWhileWritingRollsBackEveryRow() async throws {
        let harness = try ArchiveHarness()
        try await harness.database.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER archive_test_fail BEFORE INSERT ON archive_events WHEN NEW.title = '연극 ''햄릿''' BEGIN
                        SELECT RAISE(ABORT, 'disk on fire');
                    END
                    """)
        }
        await #expect(throws: DatabaseError.self) { try await harness.importSample() }
        #expect(try harness.eventCount() == 0)
    }

    @Test func progressIsReportedWhileWriting() async throws {
        let harness = try ArchiveHarness()
        let seen = Locked<[ImportProgress]>([])
        _ = try await harness.root.importer.run(InMemoryCatalogueSource.sample) { event in seen.withLock { $0.append(event) } }
        let events = seen.withLock { $0 }
        #expect(events.first == .read(rows: 13))
        #expect(events.dropFirst().first == .writing(done: 0, of: 10))
        #expect(events.last == .writing(done: 10, of: 10))
    }

    @Test func eventIDsAreStableHashesOfTheNormalisedTitlePlaceAndStartDate() {
        let start = ArchiveHarness.day("2026-11-10")
        let id = EventIdentity.id(title: "뮤지컬 〈명성황후〉", place: "세종문화회관 대극장", startsOn: start)
        #expect(id == EventIdentity.id(title: "  뮤지컬   〈명성황후〉 ", place: "세종문화회관  대극장", startsOn: start))
        #expect(id != EventIdentity.id(title: "뮤지컬 〈명성황후〉", place: "세종문화회관 대극장", startsOn: start.adding(days: 1)))
        #expect(
            EventIdentity.id(title: "Seoul Jazz", place: "Olympic Park", startsOn: start)
                == EventIdentity.id(title: "SEOUL JAZZ", place: "olympic park", startsOn: start))
        // FNV-1a 64 reference values (from the algorithm's published test vectors).
        #expect(EventIdentity.fnv1a64("") == 0xcbf2_9ce4_8422_2325)
        #expect(EventIdentity.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(EventIdentity.fnv1a64("foobar") == 0x8594_4171_f739_67e8)
        #expect(id.rawValue.count == 16 && id.rawValue.allSatisfy(\.isHexDigit))
    }

    @Test(arguments: [
        ("2025-05-01 00:00:00.0", "2025-05-01"), ("2025-05-01", "2025-05-01"), ("2025.05.01", "2025-05-01"), ("20250501", "2025-05-01"),
    ])
    func publishedDateFormatsAreRead(text: String, expected: String) {
        #expect(EventNormalizer.day(text) == ArchiveHarness.day(expected))
    }

    @Test(arguments: ["미정", "2025-02-30", "", "2025/13/01", "202505011"])
    func impossibleDatesAreNotRead(text: String) {
        #expect(EventNormalizer.day(text) == nil)
    }
}
