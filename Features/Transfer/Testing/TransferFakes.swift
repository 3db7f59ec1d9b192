import Registry
import TransferInterface

/// Transfer as other features' Examples and tests meet it, ready to register: `TransferStarterKey`,
/// `TransferReadingKey` and `RecipientsReadingKey`, each answered by the fake given (or an empty one).
public struct TransferFakes: FeatureModule {
    public let name = "Transfer (fakes)"
    public let starter: FakeTransferStarter
    public let reading: FakeTransferReading
    public let recipients: FakeRecipientsReading

    public init(
        starter: FakeTransferStarter = FakeTransferStarter(), reading: FakeTransferReading = FakeTransferReading(),
        recipients: FakeRecipientsReading = FakeRecipientsReading()
    ) {
        self.starter = starter
        self.reading = reading
        self.recipients = recipients
    }

    public var providers: [Provider] {
        [
            .instance(TransferStarterKey.self, starter), .instance(TransferReadingKey.self, reading),
            .instance(RecipientsReadingKey.self, recipients),
        ]
    }
}
