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
    struct Events: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "events", abstract: "Search the imported catalogue, sorted by start date.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "Words that must all appear in the title, place or organiser.") var text: String?
        @Option(help: "A district (GUNAME), e.g. 종로구.") var region: String?
        @Option(help: "A category (CODENAME), e.g. 뮤지컬/오페라.") var category: String?
        @Option(help: "Part of the audience text (USE_TRGT), e.g. 어린이.") var audience: String?
        @Flag(help: "Free events only.") var free = false
        @Flag(help: "Paid events only.") var paid = false
        @Option(help: "Events running on or after this day (YYYY-MM-DD).") var from: String?
        @Option(help: "Events running on or before this day (YYYY-MM-DD).") var to: String?
        @Option(help: "Events running on this day (YYYY-MM-DD): started on or before it and ending on or after it.") var on: String?
        @Option(parsing: .unconditional, help: "The page to show (1-based).") var page = 1
        @Option(name: .customLong("per-page"), help: "Events per page, 1–200 (default: the display.page-size setting).") var perPage: Int?

        func validate() throws {
            if free && paid { throw ValidationError("Give --free or --paid, not both.") }
        }

        func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
            let filters = EventFilters(
                text: text, region: region, category: category, audience: audience, free: free ? true : paid ? false : nil,
                from: from, to: to, on: on, page: page, perPage: perPage)
            try await ArchiveScreen.show(.events(filters), environment, context)
        }
    }
}

extension ArchiveJSON {
    struct Event: Encodable {
        let id: String, title: String, category: String, district: String, place: String, audience: String, fee: String, free: Bool
        let startsOn: String, endsOn: String, organization: String, link: String?, imageUrl: String?
        init(_ e: CulturalEvent) {
            (id, title, category, district, place, audience, fee, free) = (
                e.id.rawValue, e.title, e.category, e.district, e.place, e.audience, e.fee, e.isFree
            )
            (startsOn, endsOn, organization, link, imageUrl) = (
                e.startsOn.description, e.endsOn.description, e.organization, e.link?.absoluteString, e.imageURL?.absoluteString
            )
        }
    }

    struct Events: Encodable {
        let events: [Event], total: Int, page: Int, perPage: Int, pageCount: Int, catalogueCount: Int
    }
}
