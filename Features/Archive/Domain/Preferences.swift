import ArchiveInterface
import Foundation
import SharedKit

/// A user's onboarding choices: 1–3 favourite districts and 1–3 favourite categories. They drive the
/// recommendations while the user has few tickets, and give a bounded boost once a taste exists.
public struct ArchivePreferences: Sendable, Hashable {
    /// GUNAME values as the catalogue stores them, e.g. "마포구", in the order chosen.
    public let districts: [String]
    /// CODENAME values as the catalogue stores them, e.g. "전시/미술", in the order chosen.
    public let categories: [String]
    /// When they were last set (`nil` for preferences that were never stored).
    public let updatedAt: Date?

    public init(districts: [String], categories: [String], updatedAt: Date? = nil) {
        self.districts = districts
        self.categories = categories
        self.updatedAt = updatedAt
    }

    /// How many values each list may hold.
    public static let choiceRange = 1...3
}

/// What a preference list is about (the option that sets it).
public enum PreferenceKind: String, Sendable, Hashable {
    case districts
    case categories

    /// "district" / "category".
    public var singular: String { self == .districts ? "district" : "category" }
    /// "--districts" / "--categories".
    public var option: String { "--\(rawValue)" }
}

extension SeoulDistricts {
    /// The 25 districts in the official order: GUNAME and the romanised name.
    public static let romanised: [(name: String, romanised: String)] = [
        ("종로구", "Jongno-gu"), ("중구", "Jung-gu"), ("용산구", "Yongsan-gu"), ("성동구", "Seongdong-gu"), ("광진구", "Gwangjin-gu"),
        ("동대문구", "Dongdaemun-gu"), ("중랑구", "Jungnang-gu"), ("성북구", "Seongbuk-gu"), ("강북구", "Gangbuk-gu"), ("도봉구", "Dobong-gu"),
        ("노원구", "Nowon-gu"), ("은평구", "Eunpyeong-gu"), ("서대문구", "Seodaemun-gu"), ("마포구", "Mapo-gu"), ("양천구", "Yangcheon-gu"),
        ("강서구", "Gangseo-gu"), ("구로구", "Guro-gu"), ("금천구", "Geumcheon-gu"), ("영등포구", "Yeongdeungpo-gu"), ("동작구", "Dongjak-gu"),
        ("관악구", "Gwanak-gu"), ("서초구", "Seocho-gu"), ("강남구", "Gangnam-gu"), ("송파구", "Songpa-gu"), ("강동구", "Gangdong-gu"),
    ]

    /// Spellings people still use (folded: lowercase, no spaces or hyphens, without "gu").
    static let aliases: [String: String] = [
        "jongro": "종로구", "chongno": "종로구", "joong": "중구", "kangnam": "강남구", "kangdong": "강동구", "kangbuk": "강북구",
        "kangseo": "강서구", "yeongdeungpo": "영등포구", "youngdeungpo": "영등포구", "seodaemoon": "서대문구", "dongdaemoon": "동대문구",
    ]

    /// "Mapo-gu" for "마포구"; the name itself when it is not a Seoul district.
    public static func romanisedName(_ name: String) -> String {
        romanised.first { $0.name == name }?.romanised ?? name
    }

    /// "Mapo-gu (마포구)".
    public static func label(_ name: String) -> String {
        let roman = romanisedName(name)
        return roman == name ? name : "\(roman) (\(name))"
    }

    /// The GUNAME for what a person typed: "마포구", "마포", "Mapo-gu", "mapo gu", "MAPO", "mapogu"
    /// (case, spaces, hyphens and a trailing "gu"/"구" do not matter); `nil` when it is none of the 25.
    public static func match(_ input: String) -> String? {
        let folded = String(input.lowercased().filter { !$0.isWhitespace && $0 != "-" && $0 != "_" && $0 != "." })
        guard !folded.isEmpty else { return nil }
        for (name, _) in romanised where folded == name || folded + "구" == name { return name }
        let stem = folded.hasSuffix("gu") && folded.count > 2 ? String(folded.dropLast(2)) : folded
        for (name, roman) in romanised {
            let romanStem = String(roman.lowercased().filter { $0 != "-" }.dropLast(2))
            if stem == romanStem { return name }
        }
        return aliases[stem]
    }

    /// Every district, "Jongno-gu (종로구), Jung-gu (중구), …".
    public static var choices: String { romanised.map { "\($0.romanised) (\($0.name))" }.joined(separator: ", ") }
}

/// The categories of Seoul's culturalEventInfo catalogue (its CODENAME values), known before anything
/// is imported, so that a newcomer can choose preferences first: onboarding before data.
public enum CultureCategories {
    /// Every CODENAME the catalogue uses, in its own order.
    public static let known: [String] = [
        "교육/체험", "국악", "기타", "독주/독창회", "무용", "뮤지컬/오페라", "연극", "영화", "전시/미술", "축제-기타", "축제-문화/예술",
        "축제-시민화합", "축제-자연/경관", "축제-전통/역사", "콘서트", "클래식",
    ]

    /// The known categories, then any other that imported events use (a catalogue may grow one).
    public static func merged(with imported: [String]) -> [String] {
        known + imported.filter { !known.contains($0) }.sorted()
    }
}

/// Reads the comma-separated lists of `moa archive preferences set`.
public enum PreferenceInput {
    /// 1–3 districts, as GUNAME values in the order given.
    public static func districts(_ text: String) throws(ArchiveError) -> [String] {
        let items = try counted(split(text), kind: .districts)
        var chosen: [String] = []
        for item in items {
            guard let name = SeoulDistricts.match(item) else { throw .unknownDistrict(item) }
            guard !chosen.contains(name) else { throw .duplicatePreference(kind: .districts, value: SeoulDistricts.label(name)) }
            chosen.append(name)
        }
        return chosen
    }

    /// 1–3 of `available` (``CultureCategories``), in the order given. A value matches a category
    /// ignoring case and spaces, or one part of it ("전시" for "전시/미술") when only one has it.
    public static func categories(_ text: String, available: [String]) throws(ArchiveError) -> [String] {
        let items = try counted(split(text), kind: .categories, available: available)
        var chosen: [String] = []
        for item in items {
            let category = try match(category: item, in: available)
            guard !chosen.contains(category) else { throw .duplicatePreference(kind: .categories, value: category) }
            chosen.append(category)
        }
        return chosen
    }

    /// Preferences a client sends to the server, already matched against its own catalogue: 1–3
    /// districts, each exactly one of the 25 GUNAME values, and 1–3 categories, each one line of at
    /// most 100 scalars, tidied (the server keeps no catalogue to match them against); no value twice.
    public static func received(districts: [String], categories: [String]) throws(ArchiveError) -> (
        districts: [String], categories: [String]
    ) {
        var chosenDistricts: [String] = []
        for name in try counted(districts, kind: .districts) {
            guard SeoulDistricts.romanised.contains(where: { $0.name == name }) else { throw .unknownDistrict(name) }
            guard !chosenDistricts.contains(name) else { throw .duplicatePreference(kind: .districts, value: SeoulDistricts.label(name)) }
            chosenDistricts.append(name)
        }
        var chosenCategories: [String] = []
        for item in try counted(categories, kind: .categories) {
            let category = try TicketRules.tidied(
                item, field: "category", limit: TicketRules.receivedLabelLimit, emptyAllowed: false)
            guard !chosenCategories.contains(category) else { throw .duplicatePreference(kind: .categories, value: category) }
            chosenCategories.append(category)
        }
        return (chosenDistricts, chosenCategories)
    }

    static func match(category item: String, in available: [String]) throws(ArchiveError) -> String {
        let key = fold(item)
        if let exact = available.first(where: { fold($0) == key }) { return exact }
        let byPart = available.filter { category in
            category.split(whereSeparator: { $0 == "/" || $0 == "-" }).contains { fold(String($0)) == key }
        }
        if byPart.count == 1, let only = byPart.first { return only }
        if byPart.count > 1 { throw .ambiguousCategory(item, matches: byPart) }
        throw .unknownCategory(item, available: available)
    }

    static func split(_ text: String) -> [String] {
        text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
    }

    static func counted(_ items: [String], kind: PreferenceKind, available: [String] = []) throws(ArchiveError) -> [String] {
        guard ArchivePreferences.choiceRange.contains(items.count) else {
            throw .preferenceCount(kind: kind, count: items.count, available: available)
        }
        return items
    }

    static func fold(_ text: String) -> String { text.lowercased().filter { !$0.isWhitespace } }
}
