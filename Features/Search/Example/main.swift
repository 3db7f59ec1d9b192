// SearchExample: Search alone — its real Domain, Data (on an in-memory database) and commands, with
// a stub HTTP client answering like api.github.com (no network), Settings' FakeSettingsReader and
// Archive's FakeEventCatalogue holding a few Seoul events (empty with SEARCH_EXAMPLE_EMPTY=1).
//
//     Scripts/run-example Search users swift --per-page 3
//     Scripts/run-example Search users swift --page 2 --per-page 3 --json
//     Scripts/run-example Search user octocat
//     Scripts/run-example Search user nobody          # 404: there is no such user
//     Scripts/run-example Search users rate-limited   # 403 with x-ratelimit-reset
//     Scripts/run-example Search events --region 종로구 --free
//     SEARCH_EXAMPLE_EMPTY=1 Scripts/run-example Search events
import ArchiveInterface
import ArchiveTesting
import CommandKit
import Foundation
import Networking
import Registry
import SearchData
import SearchDomain
import SearchFeature
import SettingsTesting
import SharedKit
import Storage

exit(
    await CommandRunner.run(SearchCommand.self, arguments: Array(CommandLine.arguments.dropFirst())) { _, _ in
        let database = try AppDatabase.inMemory(migrations: [SearchMigrations.all])
        let catalogue = FakeEventCatalogue(ProcessInfo.processInfo.environment["SEARCH_EXAMPLE_EMPTY"] == "1" ? [] : SampleCatalogue.events)
        let registry = try RegistryBuilder(modules: [
            ModuleOf.core(database: database, clock: SystemWallClock()),
            SettingsFakes(),
            ArchiveFakes(catalogue: catalogue, today: Day(Date(), in: .current)),
            SearchDataModule(configuration: SearchAPIConfiguration(userAgent: "moa-example"), clients: .fixed(CannedGitHub.client())),
            SearchFeatureModule(),
        ]).validate(root: SearchCommandsKey.self)
        FileHandle.standardError.write(
            Data("(example data: canned api.github.com answers, no network; \(SampleCatalogue.events.count) sample events)\n".utf8))
        return [registry.resolve()]
    })

/// A few events of the Seoul catalogue.
enum SampleCatalogue {
    static let events = [
        FakeEventCatalogue.event(
            "뮤지컬 〈명성황후〉", category: "뮤지컬/오페라", district: "종로구", place: "세종문화회관 대극장", audience: "8세 이상",
            free: false, fee: "R석 120,000원", starts: "2026-11-10", ends: "2027-01-04", organization: "세종문화회관"),
        FakeEventCatalogue.event(
            "서울 빛초롱 축제", category: "축제-문화/예술", district: "종로구", place: "청계천", audience: "누구나",
            starts: "2026-12-13", ends: "2027-01-05", organization: "서울관광재단"),
        FakeEventCatalogue.event(
            "한국 근현대 회화 100선", category: "전시/미술", district: "종로구", place: "국립현대미술관 서울", audience: "누구나",
            starts: "2026-09-01", ends: "2027-02-28", organization: "국립현대미술관"),
        FakeEventCatalogue.event(
            "겨울 클래식 산책", category: "클래식", district: "서초구", place: "예술의전당 콘서트홀", audience: "초등학생 이상",
            free: false, fee: "30,000원", starts: "2026-12-20", organization: "예술의전당"),
        FakeEventCatalogue.event(
            "마포 거리 공연", category: "국악", district: "마포구", place: "경의선숲길", audience: "누구나",
            starts: "2026-10-03", ends: "2026-10-04", organization: "마포문화재단"),
    ]
}

/// Answers like api.github.com for a few requests.
enum CannedGitHub {
    static let base = "https://api.github.com"
    static let total = 3_450

    static func client() -> StubHTTPClient {
        StubHTTPClient { endpoint throws(NetworkError) in
            let query = Dictionary(endpoint.query.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
            let path = endpoint.pathSegments
            if path == ["search", "users"], query["q"] == "rate-limited" {
                let reset = Int(Date().timeIntervalSince1970) + 600
                return .json(
                    #"{"message":"API rate limit exceeded for 203.0.113.7."}"#, status: 403,
                    headers: ["x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset)])
            }
            if path == ["search", "users"] {
                return searchPage(query: query["q"] ?? "", page: Int(query["page"] ?? "") ?? 1, perPage: Int(query["per_page"] ?? "") ?? 30)
            }
            if path.count == 2, path[0] == "users", path[1].lowercased() == "octocat" {
                if endpoint.headers["If-None-Match"] == #""octocat-v1""# {
                    return HTTPResponse(status: 304, headers: ["ETag": #""octocat-v1""#])
                }
                return .json(octocat, headers: ["ETag": #""octocat-v1""#, "Cache-Control": "private, max-age=60"])
            }
            return .json(#"{"message":"Not Found","documentation_url":"https://docs.github.com/rest"}"#, status: 404)
        }
    }

    static func searchPage(query: String, page: Int, perPage: Int) -> HTTPResponse {
        let first = (page - 1) * perPage
        let count = max(0, min(perPage, min(total, 1_000) - first))
        let items = (0..<count).map { offset -> String in
            let n = first + offset + 1
            return
                #"{"login":"\#(query)-dev-\#(n)","id":\#(10_000 + n),"type":"User","score":1.0,"html_url":"https://github.com/\#(query)-dev-\#(n)"}"#
        }
        let last = (min(total, 1_000) + perPage - 1) / perPage
        let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
        func link(_ page: Int, _ rel: String) -> String {
            "<\(base)/search/users?q=\(encoded)&page=\(page)&per_page=\(perPage)>; rel=\"\(rel)\""
        }
        var links: [String] = []
        if page < last { links += [link(page + 1, "next"), link(last, "last")] }
        if page > 1 { links += [link(page - 1, "prev"), link(1, "first")] }
        let body = #"{"total_count":\#(total),"incomplete_results":false,"items":[\#(items.joined(separator: ","))]}"#
        return .json(body, headers: links.isEmpty ? [:] : ["Link": links.joined(separator: ", ")])
    }

    static let octocat = """
        {"login":"octocat","id":583231,"type":"User","name":"The Octocat","company":"@github","blog":"https://github.blog",
         "location":"San Francisco","email":null,"bio":null,"public_repos":8,"followers":9999,"following":9,
         "created_at":"2011-01-25T18:44:36Z","html_url":"https://github.com/octocat",
         "avatar_url":"https://avatars.githubusercontent.com/u/583231?v=4"}
        """
}
