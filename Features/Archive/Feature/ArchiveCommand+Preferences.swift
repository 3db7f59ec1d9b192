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
    /// `moa archive preferences [show|set|clear|choices]`: the onboarding choices behind cold-start recommendations.
    struct Preferences: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "preferences",
            abstract:
                "Your favourite districts and categories: recommendations use them until you have 3 tickets, then boost what matches them.",
            subcommands: [Show.self, SetPreferences.self, Clear.self, Choices.self],
            defaultSubcommand: Show.self)

        struct Show: ServiceCommand {
            static let configuration = CommandConfiguration(
                commandName: "show", abstract: "Show your preferences (the default of `moa archive preferences`).")
            @OptionGroup var global: GlobalOptions
            func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
                try await ArchiveScreen.show(.showPreferences, environment, context)
            }
        }

        struct SetPreferences: ServiceCommand {
            static let configuration = CommandConfiguration(
                commandName: "set",
                abstract: "Choose 1–3 districts and 1–3 categories (comma-separated); replaces what you chose before.",
                usage: "moa archive preferences set --districts Mapo-gu,Jongno-gu --categories 전시/미술,콘서트",
                discussion: "Districts are Seoul's 25 자치구, in Korean (마포구, 마포) or romanised (Mapo-gu, mapo). "
                    + "Categories are the catalogue's CODENAME values (see `moa archive preferences choices`).")
            @OptionGroup var global: GlobalOptions
            @Option(help: ArgumentHelp("1–3 of Seoul's districts, comma-separated.", valueName: "districts")) var districts: String
            @Option(help: ArgumentHelp("1–3 categories of the catalogue (e.g. 연극, 전시/미술), comma-separated.", valueName: "categories"))
            var categories: String
            func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
                try await ArchiveScreen.show(.setPreferences(districts: districts, categories: categories), environment, context)
            }
        }

        struct Clear: ServiceCommand {
            static let configuration = CommandConfiguration(commandName: "clear", abstract: "Forget your preferences.")
            @OptionGroup var global: GlobalOptions
            func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
                try await ArchiveScreen.show(.clearPreferences, environment, context)
            }
        }

        struct Choices: ServiceCommand {
            static let configuration = CommandConfiguration(
                commandName: "choices",
                abstract: "List what you can choose: Seoul's 25 districts and the catalogue's categories.")
            @OptionGroup var global: GlobalOptions
            func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
                try await ArchiveScreen.show(.preferenceChoices, environment, context)
            }
        }
    }
}

extension ArchiveJSON {
    struct District: Encodable {
        /// GUNAME, as events store it ("마포구").
        let name: String
        /// "Mapo-gu".
        let romanized: String
        init(_ name: String) { (self.name, romanized) = (name, SeoulDistricts.romanisedName(name)) }
    }

    struct PreferenceSet: Encodable {
        let districts: [District], categories: [String], updatedAt: Date?
        init(_ p: ArchivePreferences) { (districts, categories, updatedAt) = (p.districts.map(District.init), p.categories, p.updatedAt) }
    }

    /// `moa archive preferences --json`: `set` false and empty lists when none are set.
    struct PreferencesShown: Encodable {
        let set: Bool, districts: [District], categories: [String], updatedAt: Date?
        init(_ p: ArchivePreferences?) {
            (set, districts, categories, updatedAt) = (p != nil, p?.districts.map(District.init) ?? [], p?.categories ?? [], p?.updatedAt)
        }
    }

    struct Cleared: Encodable { let cleared: Bool }
    struct Choices: Encodable { let districts: [District], categories: [String] }
}
