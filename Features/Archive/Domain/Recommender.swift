import ArchiveInterface
import Foundation
import SharedKit

/// What a recommendation's score is made of.
public enum TasteSignal: String, Sendable, CaseIterable, Codable {
    case category
    case district
    case fee
    case audience

    /// The part of the score this signal can give (they sum to 1).
    public var weight: Double {
        switch self {
        case .category: 0.40
        case .district: 0.30
        case .fee: 0.15
        case .audience: 0.15
        }
    }
}

/// Which chosen preference an event matches (the chosen district and/or category it is in).
public struct PreferenceMatch: Sendable, Hashable {
    /// The event's district, when it is one of the chosen ones (GUNAME).
    public let district: String?
    /// The event's category, when it is one of the chosen ones.
    public let category: String?

    public init(district: String?, category: String?) {
        self.district = district
        self.category = category
    }

    /// Of `preferences`, what `event` matches; `nil` when nothing.
    public static func of(_ event: CulturalEvent, _ preferences: ArchivePreferences) -> PreferenceMatch? {
        let district = preferences.districts.contains(event.district) ? event.district : nil
        let category = preferences.categories.contains(event.category) ? event.category : nil
        return district == nil && category == nil ? nil : PreferenceMatch(district: district, category: category)
    }

    /// "Mapo-gu and 전시/미술", "Mapo-gu", "전시/미술".
    public var phrase: String {
        [district.map(SeoulDistricts.romanisedName), category].compactMap { $0 }.joined(separator: " and ")
    }
}

/// One recommended event, its score (0…1) and why.
public struct Recommendation: Sendable, Hashable {
    public let event: CulturalEvent
    /// Σ signal weight × the user's share for the event's value (plus the preference boost, at most 1),
    /// rounded to 4 decimals.
    public let score: Double
    /// Each signal's part of the score (from the preferences alone: category and district).
    public let contributions: [TasteSignal: Double]
    public let strongest: TasteSignal
    /// One line, with real counts: "3 of your 5-star tickets are 뮤지컬/오페라 in 종로구", or the preference
    /// that drove it: "Because you chose Mapo-gu and 전시/미술".
    public let reason: String
    /// The chosen district/category the event matches (`nil`: none, or no preferences).
    public var preference: PreferenceMatch? = nil
    /// What the preferences added to the taste score (0 without preferences or from preferences alone).
    public var preferenceBoost: Double = 0
}

/// What recommendations were computed from.
public enum RecommendationBasis: String, Sendable, Hashable {
    /// The taste card of the user's tickets.
    case taste
    /// The chosen districts and categories alone (fewer than ``Recommender/coldStartTickets`` tickets).
    case preferences
    /// The taste card, with a bounded boost for the chosen districts and categories.
    case blended
}

/// Recommendations and what they were computed from.
public struct RecommendationList: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable {
        case ok
        /// The user has no tickets (and no preferences): nothing to learn a taste from.
        case noTickets = "no_tickets"
        /// No current or upcoming event that the user has not archived matches any taste (or preference).
        case noCandidates = "no_candidates"
    }

    public let status: Status
    public let profile: TasteProfile
    public let items: [Recommendation]
    public var basis: RecommendationBasis = .taste
    /// The user's preferences (`nil`: none set).
    public var preferences: ArchivePreferences? = nil
}

/// Ranks current and upcoming events by the taste profile.
public enum Recommender {
    /// Below this many tickets, recommendations come from the preferences alone (when set).
    public static let coldStartTickets = 3
    /// From preferences alone: the score of a chosen category, of a chosen district (both: 1).
    public static let coldStartWeights = (category: 0.6, district: 0.4)
    /// Blended with a taste: what a chosen district, a chosen category add to the taste score (the sum capped at 1).
    public static let preferenceBoosts = (district: 0.1, category: 0.1)

    /// Scores every candidate not archived yet, keeps those with a positive score, best first;
    /// equal scores by start date, then id. With `preferences`, a chosen district and a chosen category
    /// each add a bounded boost (``preferenceBoosts``), and the reason names them.
    public static func recommend(
        profile: TasteProfile, tickets: [Ticket], candidates: [CulturalEvent], limit: Int,
        preferences: ArchivePreferences? = nil
    ) -> [Recommendation] {
        let archived = Set(tickets.compactMap(\.eventID))
        var scored: [(key: Int, recommendation: Recommendation)] = []
        for event in candidates where event.endsOn >= profile.asOf && !archived.contains(event.id) {
            let shares: [TasteSignal: Double] = [
                .category: profile.share(category: event.category),
                .district: profile.share(district: event.district),
                .fee: profile.share(free: event.isFree),
                .audience: profile.share(audience: AudienceGroup.of(event.audience)),
            ]
            var contributions: [TasteSignal: Double] = [:]
            for signal in TasteSignal.allCases { contributions[signal] = signal.weight * (shares[signal] ?? 0) }
            let taste = TasteSignal.allCases.reduce(0) { $0 + (contributions[$1] ?? 0) }
            let tasteKey = Int((taste * 10_000).rounded())
            let match = preferences.flatMap { PreferenceMatch.of(event, $0) }
            let boost = (match?.district == nil ? 0 : preferenceBoosts.district) + (match?.category == nil ? 0 : preferenceBoosts.category)
            let key = Int((min(1, taste + boost) * 10_000).rounded())
            guard key > 0 else { continue }
            // The strongest signal; on equal parts the earlier one of category, district, fee, audience.
            var strongest = TasteSignal.category
            for signal in TasteSignal.allCases where (contributions[signal] ?? 0) > (contributions[strongest] ?? 0) + 1e-12 {
                strongest = signal
            }
            var reason: String
            if tasteKey > 0 {
                reason = Self.reason(for: event, strongest: strongest, profile: profile, tickets: tickets)
                if let match { reason += " · and your chosen " + chosenPhrase(match) }
            } else {
                guard let match else { continue }
                strongest = match.category == nil ? .district : .category
                reason = "Because you chose \(match.phrase)"
            }
            scored.append(
                (
                    key,
                    Recommendation(
                        event: event, score: Double(key) / 10_000, contributions: contributions, strongest: strongest,
                        reason: reason, preference: match, preferenceBoost: boost)
                ))
        }
        return ranked(scored, limit: limit)
    }

    /// Cold start: current and upcoming events in the chosen districts and categories, not archived yet.
    /// A chosen category counts 0.6, a chosen district 0.4 (both: 1); each reason names the choice
    /// that drove it ("Because you chose Mapo-gu and 전시/미술").
    public static func recommend(
        preferences: ArchivePreferences, tickets: [Ticket], candidates: [CulturalEvent], today: Day,
        limit: Int
    ) -> [Recommendation] {
        let archived = Set(tickets.compactMap(\.eventID))
        var scored: [(key: Int, recommendation: Recommendation)] = []
        for event in candidates where event.endsOn >= today && !archived.contains(event.id) {
            guard let match = PreferenceMatch.of(event, preferences) else { continue }
            let contributions: [TasteSignal: Double] = [
                .category: match.category == nil ? 0 : coldStartWeights.category,
                .district: match.district == nil ? 0 : coldStartWeights.district,
                .fee: 0, .audience: 0,
            ]
            let key = Int((TasteSignal.allCases.reduce(0) { $0 + (contributions[$1] ?? 0) } * 10_000).rounded())
            scored.append(
                (
                    key,
                    Recommendation(
                        event: event, score: Double(key) / 10_000, contributions: contributions,
                        strongest: match.category == nil ? .district : .category,
                        reason: "Because you chose \(match.phrase)", preference: match)
                ))
        }
        return ranked(scored, limit: limit)
    }

    /// "district Jongno-gu", "category 콘서트", "Jongno-gu and 콘서트".
    static func chosenPhrase(_ match: PreferenceMatch) -> String {
        switch (match.district, match.category) {
        case (let district?, nil): "district \(SeoulDistricts.romanisedName(district))"
        case (nil, let category?): "category \(category)"
        default: match.phrase
        }
    }

    private static func ranked(_ scored: [(key: Int, recommendation: Recommendation)], limit: Int) -> [Recommendation] {
        let sorted = scored.sorted { a, b in
            if a.key != b.key { return a.key > b.key }
            if a.recommendation.event.startsOn != b.recommendation.event.startsOn {
                return a.recommendation.event.startsOn < b.recommendation.event.startsOn
            }
            return a.recommendation.event.id < b.recommendation.event.id
        }
        return sorted.prefix(max(0, limit)).map(\.recommendation)
    }

    /// The strongest signal in words, counted on the user's tickets. When the event also shares the
    /// district (or category) with at least two tickets of that category (or district), both are named.
    /// Counted among 5-star tickets when at least two of them (or all of them) match, else among all.
    static func reason(for event: CulturalEvent, strongest: TasteSignal, profile: TasteProfile, tickets: [Ticket]) -> String {
        let category = { (ticket: Ticket) in !event.category.isEmpty && ticket.category == event.category }
        let district = { (ticket: Ticket) in !event.district.isEmpty && ticket.district == event.district }
        let group = AudienceGroup.of(event.audience)
        var matches: (Ticket) -> Bool
        var phrase: (singular: String, plural: String)
        switch strongest {
        case .category:
            matches = category
            phrase = ("is \(event.category)", "are \(event.category)")
        case .district:
            matches = district
            phrase = ("is in \(event.district)", "are in \(event.district)")
        case .fee:
            matches = { $0.isFree == event.isFree }
            phrase = event.isFree ? ("is a free event", "are free events") : ("is a paid event", "are paid events")
        case .audience:
            matches = { AudienceGroup.of($0.audience) == group }
            phrase = ("is for \(group?.label ?? "the same audience")", "are for \(group?.label ?? "the same audience")")
        }
        if strongest == .category || strongest == .district, tickets.filter({ category($0) && district($0) }).count >= 2 {
            matches = { category($0) && district($0) }
            phrase = ("is \(event.category) in \(event.district)", "are \(event.category) in \(event.district)")
        }
        let fiveStar = tickets.filter { $0.rating == 5 }
        let fiveStarMatching = fiveStar.filter(matches).count
        let sentence: String
        if fiveStarMatching >= 2 || (fiveStarMatching >= 1 && fiveStarMatching == fiveStar.count) {
            sentence = counted(fiveStarMatching, of: fiveStar.count, noun: "5-star ticket", phrase: phrase, showTotal: false)
        } else {
            sentence = counted(tickets.filter(matches).count, of: tickets.count, noun: "ticket", phrase: phrase, showTotal: true)
        }
        return sentence.prefix(1).uppercased() + sentence.dropFirst()
    }

    /// "3 of your 5 tickets are …", "both of your 5-star tickets are …", "your only ticket is …".
    public static func counted(_ count: Int, of total: Int, noun: String, phrase: (singular: String, plural: String), showTotal: Bool)
        -> String
    {
        if count == total {
            switch total {
            case 1: return "your only \(noun) \(phrase.singular)"
            case 2: return "both of your \(noun)s \(phrase.plural)"
            default: return "all \(total) of your \(noun)s \(phrase.plural)"
            }
        }
        let verbPhrase = count == 1 ? phrase.singular : phrase.plural
        return showTotal ? "\(count) of your \(total) \(noun)s \(verbPhrase)" : "\(count) of your \(noun)s \(verbPhrase)"
    }
}
