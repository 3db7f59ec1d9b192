import ArgumentParser
import CommandKit
import DesignSystem
import Foundation
import Money
import Registry
import SharedKit
import TransferDomain
import TransferInterface

/// Transfer's command group, collected by the App's root.
public enum TransferCommandsKey: ServiceKey {
    public typealias Service = FeatureCommands
}

/// What Transfer's commands run with.
public struct TransferEnvironment: Sendable {
    let starter: any TransferStarter
    let reading: any TransferReading
    let batch: TransferBatch
    let recipients: any RecipientUseCases

    public init(starter: any TransferStarter, reading: any TransferReading, batch: TransferBatch, recipients: any RecipientUseCases) {
        self.starter = starter
        self.reading = reading
        self.batch = batch
        self.recipients = recipients
    }
}

/// `moa transfer …`
public struct TransferCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "transfer",
        abstract: "Send money, in bulk from a CSV file too; list your transfers and show receipts; keep favourite recipients.",
        subcommands: [Send.self, Batch.self, List.self, Show.self, RecipientsCommand.self]
    )

    public init() {}
}
