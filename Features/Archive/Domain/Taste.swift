import ArchiveInterface
import Foundation
import SharedKit

/// Who an event is for, coarsely, from its free-text USE_TRGT ("누구나", "8세 이상", "초등학생 및 가족").
public enum AudienceGroup: String, Sendable, CaseIterable, Codable {
    case everyone
    case children
    case teens
    case adults
    case seniors

    /// For sentences: "are for children and families".
    public var label: String {
        switch self {
        case .everyone: "everyone"
        case .children: "children and families"
        case .teens: "teens"
        case .adults: "adults"
        case .seniors: "seniors"
        }
    }

    /// The group of a USE_TRGT text, or `nil` when it says nothing recognisable.
    public static func of(_ audience: String) -> AudienceGroup? {
        let text = audience.lowercased().filter { !$0.isWhitespace }
        guard !text.isEmpty else { return nil }
        func has(_ words: String...) -> Bool { words.contains { text.contains($0) } }
        if text.contains("이상") {
            if let age = minimumAge(text) { return age >= 19 ? .adults : age >= 13 ? .teens : .everyone }
            if has("성인", "대학생") { return .adults }
            if has("중학", "청소년") { return .teens }
            if has("초등", "어린이", "유아", "아동") { return .everyone }
        }
        if has("어르신", "노인", "시니어", "65세") { return .seniors }
        if has("어린이", "아동", "유아", "초등", "키즈", "가족", "부모") { return .children }
        if has("청소년", "중학", "고등", "중·고") { return .teens }
        if has("성인", "대학생", "직장인", "청년") { return .adults }
        if has("누구나", "전체", "전연령", "제한없음", "남녀노소", "시민", "모두", "all") { return .everyone }
        return nil
    }

    /// The N of "N세 이상" (also "만 N세이상").
    static func minimumAge(_ text: String) -> Int? {
        let characters = Array(text)
        for (index, character) in characters.enumerated() where character == "세" && index > 0 {
            var start = index
            while start > 0, characters[start - 1].isASCIIDigit { start -= 1 }
            if start < index, let age = Int(String(characters[start..<index])) { return age }
        }
        return nil
    }
}

/// One bar of the taste card: a category, district, weekday, audience or fee class.
public struct TasteShare: Sendable, Hashable {
    public let name: String
    /// How many tickets fall in it.
    public let count: Int
    /// The sum of their weights.
    public let weight: Double
    /// `weight` over the weight of all tickets, 0…1.
    public let share: Double

    public init(name: String, count: Int, weight: Double, share: Double) {
        self.name = name
        self.count = count
        self.weight = weight
        self.share = share
    }
}

/// The user's taste, from their tickets: each ticket counts `rating/5` (unrated: 0.6) times a
/// recency factor that halves every 180 days since it was attended.
public struct TasteProfile: Sendable, Hashable {
    public static let unratedFactor = 0.6
    public static let halfLifeDays = 180.0
    public static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    public let asOf: Day
    public let ticketCount: Int
    public let ratedCount: Int
    public let averageRating: Double?
    public let totalWeight: Double
    /// Heaviest first (then more tickets, then name).
    public let categories: [TasteShare]
    public let districts: [TasteShare]
    /// Always seven, Monday first.
    public let weekdays: [TasteShare]
    /// Heaviest first; named by ``AudienceGroup`` raw value.
    public let audiences: [TasteShare]
    public let free: TasteShare
    public let paid: TasteShare

    public var isEmpty: Bool { ticketCount == 0 }

    /// How much a ticket counts.
    public static func weight(rating: Int?, attendedOn: Day, today: Day) -> Double {
        let ratingFactor = rating.map { Double($0) / 5 } ?? unratedFactor
        let age = max(0, attendedOn.days(until: today))
        return ratingFactor * pow(0.5, Double(age) / halfLifeDays)
    }

    public static func make(tickets: [Ticket], today: Day) -> TasteProfile {
        let weights = tickets.map { weight(rating: $0.rating, attendedOn: $0.attendedOn, today: today) }
        let total = weights.reduce(0, +)
        func shares(_ key: (Ticket) -> String?) -> [TasteShare] {
            var sums: [String: (count: Int, weight: Double)] = [:]
            for (ticket, weight) in zip(tickets, weights) {
                guard let name = key(ticket), !name.isEmpty else { continue }
                sums[name, default: (0, 0)].count += 1
                sums[name, default: (0, 0)].weight += weight
            }
            return sums.map {
                TasteShare(name: $0.key, count: $0.value.count, weight: $0.value.weight, share: total > 0 ? $0.value.weight / total : 0)
            }
            .sorted(by: heavierFirst)
        }
        let byWeekday = shares { weekdayNames[$0.attendedOn.isoWeekday - 1] }
        let weekdays = weekdayNames.map { name in
            byWeekday.first { $0.name == name } ?? TasteShare(name: name, count: 0, weight: 0, share: 0)
        }
        let fees = shares { $0.isFree ? "free" : "paid" }
        let ratings = tickets.compactMap(\.rating)
        return TasteProfile(
            asOf: today, ticketCount: tickets.count, ratedCount: ratings.count,
            averageRating: ratings.isEmpty ? nil : Double(ratings.reduce(0, +)) / Double(ratings.count), totalWeight: total,
            categories: shares(\.category), districts: shares(\.district), weekdays: weekdays,
            audiences: shares { AudienceGroup.of($0.audience)?.rawValue },
            free: fees.first { $0.name == "free" } ?? TasteShare(name: "free", count: 0, weight: 0, share: 0),
            paid: fees.first { $0.name == "paid" } ?? TasteShare(name: "paid", count: 0, weight: 0, share: 0))
    }

    public func share(category: String) -> Double { categories.first { $0.name == category }?.share ?? 0 }
    public func share(district: String) -> Double { districts.first { $0.name == district }?.share ?? 0 }
    public func share(free: Bool) -> Double { free ? self.free.share : paid.share }
    public func share(audience: AudienceGroup?) -> Double {
        guard let audience else { return 0 }
        return audiences.first { $0.name == audience.rawValue }?.share ?? 0
    }

    static func heavierFirst(_ a: TasteShare, _ b: TasteShare) -> Bool {
        if a.weight != b.weight { return a.weight > b.weight }
        if a.count != b.count { return a.count > b.count }
        return a.name.utf8.lexicographicallyPrecedes(b.name.utf8)
    }
}
