// AccountExample: Account alone — its real Domain, Data (on an in-memory database) and commands,
// with a fake session from AuthTesting and two seeded accounts, so every command shows something.
//
//     Scripts/run-example Account list
//     Scripts/run-example Account history 110-0000-0001-9 --limit 2
import AccountData
import AccountDomain
import AccountFeature
import AuthTesting
import CommandKit
import Foundation
import Registry
import SharedKit
import Storage
import TransferTesting

exit(
    await CommandRunner.run(AccountCommand.self, arguments: Array(CommandLine.arguments.dropFirst())) { _, _ in
        let database = try AppDatabase.inMemory(migrations: [AccountMigrations.all])
        let session = FakeSessionProvider(user: FakeSessionProvider.ada)
        let registry = try RegistryBuilder(modules: [
            ModuleOf.core(database: database, clock: SystemWallClock()),
            AuthFakes(session: session),
            TransferFakes(),
            AccountDataModule(),
            AccountFeatureModule(),
            ModuleOf(
                "Example",
                [
                    .singleton(AccountExampleRoot.self, requires: AccountCommandsKey.self, AccountServiceKey.self) {
                        AccountExampleRoot.Service(commands: $0, service: $1)
                    }
                ]),
        ]).validate(root: AccountExampleRoot.self)
        let root = registry.resolve()
        let checking = try await root.service.open(kind: .checking, name: "Everyday")
        _ = try await root.service.open(kind: .savings, name: "Rainy day")
        _ = try await root.service.deposit("2,500,000", to: checking.number.description, memo: "Salary")
        _ = try await root.service.withdraw("12,000", from: checking.number.description, memo: "Lunch")
        FileHandle.standardError.write(Data("(example data: Ada's accounts \(checking.number) and a savings account, in memory)\n".utf8))
        return [root.commands]
    })

enum AccountExampleRoot: ServiceKey {
    struct Service: Sendable {
        let commands: FeatureCommands
        let service: any AccountUseCases
    }
}
