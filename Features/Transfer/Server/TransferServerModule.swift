import APIServing
import Registry
import TransferDomain
import TransferInterface

/// The operations tagged Transfer, as `moa-server` registers them (``TransferServerModule``).
public enum TransferRoutesKey: ServiceKey { public typealias Service = any ServedRoutes }

extension TransferHandlers: ServedRoutes {}

/// Where the handlers report what became of each request to send money (the server's metrics).
public struct TransferOutcomeCounter: Sendable {
    public let count: @Sendable (TransferHandlers.Outcome) -> Void

    public init(_ count: @escaping @Sendable (TransferHandlers.Outcome) -> Void) {
        self.count = count
    }
}

/// The server's ``TransferOutcomeCounter``.
public enum TransferOutcomeCounterKey: ServiceKey {
    public typealias Service = TransferOutcomeCounter
    public static var expectedProvider: String { "moa-server" }
}

/// What Transfer adds to `moa-server`: its use cases, composed as `moa` composes them, and its
/// handlers on them, naming refusals by the server's problem catalog and counting outcomes where the
/// server says.
public struct TransferServerModule: FeatureModule {
    public let name = "Transfer"

    public init() {}

    public var providers: [Provider] {
        SendMoney.providers + [
            .singleton(
                TransferRoutesKey.self, requires: SendMoneyKey.self, TransferReadingKey.self, RecipientBookKey.self,
                ProblemCatalogKey.self, TransferOutcomeCounterKey.self
            ) { sendMoney, transfers, recipients, problems, counter in
                TransferHandlers(
                    sendMoney: sendMoney, transfers: transfers, recipients: recipients, problems: problems, count: counter.count)
            }
        ]
    }
}
