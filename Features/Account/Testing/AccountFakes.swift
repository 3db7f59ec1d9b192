import AccountInterface
import Registry

/// Account as other features' Examples and tests meet it, ready to register: `AccountDirectoryKey`
/// and `AccountPostingKey`, both answered by ``accounts`` (none, unless given some).
public struct AccountFakes: FeatureModule {
    public let name = "Account (fakes)"
    public let accounts: FakeAccounts

    public init(accounts: FakeAccounts = FakeAccounts()) {
        self.accounts = accounts
    }

    public var providers: [Provider] {
        [.instance(AccountDirectoryKey.self, accounts), .instance(AccountPostingKey.self, accounts)]
    }
}
