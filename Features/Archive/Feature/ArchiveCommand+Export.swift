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

extension ExportFormat: ExpressibleByArgument {}

extension ArchiveCommand {
    struct Export: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Export your tickets as JSON or CSV (RFC 4180).",
            discussion: """
                CSV is UTF-8 without a byte-order mark. Excel (notably on Korean Windows) reads such a file in \
                the local code page and garbles Hangul: add --bom for a file Excel opens as UTF-8.
                """)
        @OptionGroup var global: GlobalOptions
        @Option(help: "json or csv.") var format: ExportFormat
        @Option(help: "Write to this file (atomically, readable only by you) instead of standard output.") var output: String?
        @Flag(help: "With --format csv: start with a UTF-8 byte-order mark (EF BB BF), so Excel reads Hangul correctly.") var bom = false

        func validate() throws {
            if bom, format != .csv { throw ValidationError("--bom goes with --format csv: JSON never starts with a byte-order mark.") }
            if let output, output.allSatisfy(\.isWhitespace) {
                throw ValidationError("--output names no file: give a path, or leave --output out to write to standard output.")
            }
        }

        func run(in environment: ArchiveEnvironment, context: CommandContext) async throws {
            try await ArchiveScreen.show(.export(format, output: output, byteOrderMark: bom), environment, context)
        }
    }
}

extension ArchiveJSON {
    struct Exported: Encodable { let format: String, tickets: Int, path: String }
}
