import ArgumentParser
import CommandKit
import DesignSystem
import Foundation
import Money
import Registry
import SharedKit
import TransferDomain
import TransferInterface

extension TransferCommand {
    struct List: ServiceCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Your transfers, newest first, page by page.")
        @OptionGroup var global: GlobalOptions
        @Option(parsing: .unconditional, help: "Transfers per page (1–200).") var limit = 20
        @Option(help: "The cursor printed under the previous page.") var after: String?

        func run(in environment: TransferEnvironment, context: CommandContext) async throws {
            try await TransferScreen.show(.list(limit: limit, after: after), environment, context)
        }
    }

    struct Show: ServiceCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a transfer's receipt.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The transfer id (from send, batch or list).") var transferID: String

        func run(in environment: TransferEnvironment, context: CommandContext) async throws {
            try await TransferScreen.show(.show(transferID), environment, context)
        }
    }
}
