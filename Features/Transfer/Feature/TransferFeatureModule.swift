import ArgumentParser
import CommandKit
import DesignSystem
import Foundation
import Money
import Registry
import SharedKit
import TransferDomain
import TransferInterface

/// What Transfer's Feature layer provides: the use cases (composed here because they need the other
/// features' Interfaces, which TransferData may not see) and the commands.
public struct TransferFeatureModule: FeatureModule {
    public let name = "Transfer"

    public init() {}

    public var providers: [Provider] {
        SendMoney.providers + [
            .singleton(
                TransferCommandsKey.self, requires: TransferStarterKey.self, TransferReadingKey.self, SendMoneyKey.self,
                RecipientBookKey.self
            ) {
                starter, reading, sendMoney, recipients in
                FeatureCommands(
                    TransferCommand.self,
                    environment: TransferEnvironment(
                        starter: starter, reading: reading, batch: TransferBatch(sendMoney: sendMoney),
                        recipients: recipients))
            }
        ]
    }
}
