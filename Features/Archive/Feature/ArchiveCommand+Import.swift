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
    struct Import: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import a culturalEventInfo catalogue from a JSON file or the live Seoul Open Data API.",
            usage: """
                moa archive import FILE.json
                moa archive import --api [--from N] [--to M]
                moa archive import --sample
                """,
            discussion: """
                All rows are written in one transaction: a failure imports nothing. Importing again updates \
                changed events and never duplicates one (an event's id is a hash of its title, place and start date).

                --api reads your Seoul Open Data API key from the archive.api-key setting (or MOA_ARCHIVE_API_KEY); \
                store it once with `moa settings set archive.api-key --value-stdin`. --api-key KEY still works for \
                old scripts, but other users see the key in `ps` and your shell keeps it in its history.
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "A culturalEventInfo JSON file (as downloaded from data.seoul.go.kr).") var file: String?
        @Flag(help: "Import from the live Seoul Open Data API, with the key of the archive.api-key setting.") var api = false
        @Option(
            name: .customLong("api-key"),
            help: ArgumentHelp("Deprecated, visible to other users: import from the live API with this key (use --api).", valueName: "key"))
        var apiKey: String?
        @Option(help: "With --api: the first row to fetch (1-based).") var from: Int?
        @Option(help: "With --api: the last row to fetch (default: the last one).") var to: Int?
        @Flag(help: "Import the small sample catalogue that ships with moa (no file, no API key).") var sample = false

        func validate() throws {
            if sample {
                guard file == nil, !api, apiKey == nil, from == nil, to == nil else { throw ValidationError("--sample goes alone.") }
                return
            }
            if api, apiKey != nil {
                throw ValidationError("Give either --api (the key from the archive.api-key setting) or --api-key, not both.")
            }
            let live = api || apiKey != nil
            switch (file, live) {
            case (nil, false): throw ValidationError("Give a FILE to import, --api for the live API, or --sample.")
            case (.some, true): throw ValidationError("Give either a FILE or --api, not both.")
            case (.some, false) where from != nil || to != nil: throw ValidationError("--from and --to go with --api.")
            default: break
            }
        }

        func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
            let input: ArchiveViewModel.Input =
                if sample {
                    .importSample
                } else if let file {
                    .importFile(path: file)
                } else if let apiKey {
                    .importAPI(key: apiKey, from: from ?? 1, to: to)
                } else {
                    .importConfiguredAPI(from: from ?? 1, to: to)
                }
            if apiKey != nil { ArchiveScreen.warnVisibleKey(context) }
            let display = ImportProgressDisplay(context: context)
            defer { display.finish() }
            try await ArchiveScreen.show(input, environment, context, progress: display.update)
        }
    }
}

extension ArchiveJSON {
    struct Skipped: Encodable { let row: Int, title: String?, reason: String, detail: String }

    struct Import: Encodable {
        let source: String, rows: Int, new: Int, updated: Int, unchanged: Int, skipped: [Skipped], catalogueCount: Int
        init(_ r: ImportReport) {
            (source, rows, new, updated, unchanged, catalogueCount) = (r.source, r.rows, r.new, r.updated, r.unchanged, r.catalogueCount)
            skipped = r.skipped.map { Skipped(row: $0.row, title: $0.title, reason: $0.reason.code, detail: $0.reason.description) }
        }
    }
}
