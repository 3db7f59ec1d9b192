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

/// One recommended event, its score (0…1) and why.
public struct Recommendation: Sendable, Hashable {
    public let event: CulturalEvent
    /// Σ signal weight × the user's share for the event's value, rounded to 4 decimals.
    public let score: Double
    /// Each signal's part of the score.
    public let contributions: [TasteSignal: Double]
    public let strongest: TasteSignal
    /// One line, with real counts: "3 of your 5-star tickets are 뮤지컬/오페라 in 종로구".
    public let reason: String
}

/// Recommendations and what they were computed from.
public struct RecommendationList: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable {
        case ok
        /// The user has no tickets: nothing to learn a taste from.
        case noTickets = "no_tickets"
        /// No current or upcoming event that the user has not archived matches any taste.
        case noCandidates = "no_candidates"
    }

    public let status: Status
    public let profile: TasteProfile
    public let items: [Recommendation]
}

/// Ranks current and upcoming events by the taste profile.
public enum Recommender {
    /// Scores every candidate not archived yet, keeps those with a positive score, best first;
    /// equal scores by start date, then id.
    public static func recommend(profile: TasteProfile, tickets: [Ticket], candidates: [CulturalEvent], limit: Int) -> [Recommendation] {
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
            let key = Int((TasteSignal.allCases.reduce(0) { $0 + (contributions[$1] ?? 0) } * 10_000).rounded())
            guard key > 0 else { continue }
            // The strongest signal; on equal parts the earlier one of category, district, fee, audience.
            var strongest = TasteSignal.category
            for signal in TasteSignal.allCases where (contributions[signal] ?? 0) > (contributions[strongest] ?? 0) + 1e-12 {
                strongest = signal
            }
            scored.append((key, Recommendation(event: event, score: Double(key) / 10_000, contributions: contributions, strongest: strongest,
                                               reason: reason(for: event, strongest: strongest, profile: profile, tickets: tickets))))
        }
        scored.sort { a, b in
            if a.key != b.key { return a.key > b.key }
            if a.recommendation.event.startsOn != b.recommendation.event.startsOn {
                return a.recommendation.event.startsOn < b.recommendation.event.startsOn
            }
            return a.recommendation.event.id < b.recommendation.event.id
        }
        return scored.prefix(max(0, limit)).map(\.recommendation)
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
    public static func counted(_ count: Int, of total: Int, noun: String, phrase: (singular: String, plural: String), showTotal: Bool) -> String {
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
