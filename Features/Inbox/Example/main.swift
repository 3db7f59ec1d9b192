// InboxExample: Inbox alone — its real Domain, Data (on an in-memory database) and commands, with a
// fake session from AuthTesting and a few notices published the way Transfer and Auth publish them
// (in a transaction), so every command shows something.
//
//     Scripts/run-example Inbox                 # lists (as `moa inbox` does)
//     Scripts/run-example Inbox --unread --json
//     Scripts/run-example Inbox read 2
//     Scripts/run-example Inbox read --all
import AuthTesting
import CommandKit
import Foundation
import InboxData
import InboxDomain
import InboxFeature
import InboxInterface
import Registry
import SharedKit
import Storage

exit(
    await CommandRunner.run(InboxCommand.self, arguments: Array(CommandLine.arguments.dropFirst())) { _, _ in
        let database = try AppDatabase.inMemory(migrations: [InboxMigrations.all])
        let session = FakeSessionProvider(user: FakeSessionProvider.ada)
        let registry = try RegistryBuilder(modules: [
            ModuleOf.core(database: database, clock: SystemWallClock()),
            AuthFakes(session: session),
            InboxDataModule(),
            InboxFeatureModule(),
            ModuleOf(
                "Example",
                [
                    .singleton(InboxExampleRoot.self, requires: InboxCommandsKey.self, InboxPublisherKey.self) {
                        InboxExampleRoot.Service(commands: $0, publisher: $1)
                    }
                ]),
        ]).validate(root: InboxExampleRoot.self)
        let root = registry.resolve()
        let ada = FakeSessionProvider.ada.id
        let now = Date()
        let notices = [
            InboxNotice(
                recipient: ada, kind: .newLogin, title: "New sign-in", body: "Your password was used to sign in to moa.",
                createdAt: now.addingTimeInterval(-3 * 3600)),
            InboxNotice(
                recipient: ada, kind: .moneyReceived, title: "Received 50,000 KRW", body: "From 220-8765-4321-0 into 110-1234-5678-9: rent",
                createdAt: now.addingTimeInterval(-2 * 3600)),
            InboxNotice(
                recipient: ada, kind: .largeTransferSent, title: "Sent 3,000,000 KRW",
                body: "From 110-1234-5678-9 to 330-1111-2222-3, at or above your large-transfer threshold.",
                createdAt: now.addingTimeInterval(-3600)),
            // Someone else's: Ada never sees it.
            InboxNotice(
                recipient: "user-bo", kind: .passwordChanged, title: "Password changed", body: "Your password was changed.", createdAt: now),
        ]
        // Published as producers do: inside their transaction, so a notice exists exactly when its cause committed.
        try await database.perform { transaction in
            for notice in notices { try root.publisher.publish(notice, in: transaction) }
        }
        FileHandle.standardError.write(Data("(example data: three notices for Ada, in memory)\n".utf8))
        return [root.commands]
    })

enum InboxExampleRoot: ServiceKey {
    struct Service: Sendable {
        let commands: FeatureCommands
        let publisher: any InboxPublisher
    }
}
