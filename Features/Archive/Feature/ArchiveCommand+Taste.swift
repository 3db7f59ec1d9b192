import ArchiveDomain
import ArchiveInterface
import ArgumentParser
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import Registry
import SettingsInterface
import SharedKit
import Synchronization

extension ArchiveCommand {
    struct Taste: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "taste",
            abstract: "Your taste card: top categories, districts, weekdays and free vs paid.",
            discussion: "Each ticket weighs its rating / 5 (unrated: 0.6), halved for every 180 days since you went.")
        @OptionGroup var global: GlobalOptions
        func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
            try await ArchiveScreen.show(.taste, environment, context)
        }
    }

    struct Recommend: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "recommend",
            abstract: "Current and upcoming events you have not archived, ranked by your taste, each with its reason.")
        @OptionGroup var global: GlobalOptions
        @Option(parsing: .unconditional, help: "How many, 1–100.") var limit = 10
        func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
            try await ArchiveScreen.show(.recommend(limit: limit), environment, context)
        }
    }
}

extension ArchiveJSON {
    struct Share: Encodable {
        let name: String, count: Int, weight: Double, share: Double
        init(_ s: TasteShare) { (name, count, weight, share) = (s.name, s.count, round(s.weight), round(s.share)) }
    }

    struct Taste: Encodable {
        struct Weighting: Encodable { let unratedFactor: Double, halfLifeDays: Double }
        let asOf: String, tickets: Int, rated: Int, averageRating: Double?, categories: [Share], districts: [Share], weekdays: [Share]
        let audiences: [Share], freeShare: Double, paidShare: Double, weighting: Weighting
        init(_ p: TasteProfile) {
            (asOf, tickets, rated, averageRating) = (p.asOf.description, p.ticketCount, p.ratedCount, p.averageRating.map(round))
            (categories, districts, weekdays, audiences) = (
                p.categories.map(Share.init), p.districts.map(Share.init), p.weekdays.map(Share.init), p.audiences.map(Share.init)
            )
            (freeShare, paidShare) = (round(p.free.share), round(p.paid.share))
            weighting = Weighting(unratedFactor: TasteProfile.unratedFactor, halfLifeDays: TasteProfile.halfLifeDays)
        }
    }

    struct Matched: Encodable {
        let district: String?, category: String?
    }

    struct Recommendation: Encodable {
        let rank: Int, event: Event, score: Double, strongestSignal: String, reason: String, contributions: [String: Double]
        /// The chosen district/category the event is in (`null`: none).
        let preference: Matched?
        let preferenceBoost: Double
    }

    struct Recommendations: Encodable {
        /// `basis`: `taste`, `preferences` (cold start) or `blended`.
        let status: String, basis: String, asOf: String, tickets: Int, preferences: PreferenceSet?, recommendations: [Recommendation]
        init(_ list: RecommendationList) {
            (status, basis, asOf, tickets) = (
                list.status.rawValue, list.basis.rawValue, list.profile.asOf.description, list.profile.ticketCount
            )
            preferences = list.preferences.map(PreferenceSet.init)
            recommendations = list.items.enumerated().map { index, item in
                Recommendation(
                    rank: index + 1, event: Event(item.event), score: item.score, strongestSignal: item.strongest.rawValue,
                    reason: item.reason,
                    contributions: Dictionary(uniqueKeysWithValues: item.contributions.map { ($0.key.rawValue, round($0.value)) }),
                    preference: item.preference.map { Matched(district: $0.district, category: $0.category) },
                    preferenceBoost: round(item.preferenceBoost))
            }
        }
    }
}
