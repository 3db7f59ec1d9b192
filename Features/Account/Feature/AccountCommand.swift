import AccountDomain
import AccountInterface
import ArgumentParser
import AuthInterface
import CommandKit
import DesignSystem
import Foundation
import Money
import Registry
import SharedKit
import TransferInterface

/// Account's command group, collected by the App's root.
public enum AccountCommandsKey: ServiceKey {
    public typealias Service = FeatureCommands
}

/// What Account's commands run with.
public struct AccountEnvironment: Sendable {
    let service: any AccountUseCases
}

extension AccountKind: ExpressibleByArgument {}

/// `moa account …`
public struct AccountCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Open, list and close accounts; deposit, withdraw, see the history.",
        subcommands: [Open.self, List.self, Show.self, Rename.self, Deposit.self, Withdraw.self, History.self, Close.self]
    )

    public init() {}

    struct Open: ServiceCommand {
        static let configuration = CommandConfiguration(commandName: "open", abstract: "Open an account (checking, savings or investment).")
        @OptionGroup var global: GlobalOptions
        @Option(help: "checking, savings or investment.") var type: AccountKind
        @Option(help: "A name for it (1 to 40 characters, one line, no control characters).") var name: String
        @Option(help: "ISO 4217 currency code: KRW, USD, EUR, JPY, … (`moa account open --currency XYZ` lists them).")
        var currency = "KRW"

        func run(in environment: AccountEnvironment, context: CommandContext) async throws {
            try await AccountScreen.show(.open(kind: type, name: name, currency: currency), environment, context)
        }
    }

    struct List: ServiceCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List your accounts.")
        @OptionGroup var global: GlobalOptions
        func run(in environment: AccountEnvironment, context: CommandContext) async throws {
            try await AccountScreen.show(.list, environment, context)
        }
    }

    struct Show: ServiceCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show an account and its latest movements.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Account number (e.g. 110-1234-5678-9) or id.") var account: String
        func run(in environment: AccountEnvironment, context: CommandContext) async throws {
            try await AccountScreen.show(.show(account), environment, context)
        }
    }

    struct Rename: ServiceCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename an account.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Account number or id.") var account: String
        @Argument(help: "The new name.") var name: String
        func run(in environment: AccountEnvironment, context: CommandContext) async throws {
            try await AccountScreen.show(.rename(account, to: name), environment, context)
        }
    }

    struct Deposit: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "deposit",
            abstract: "Put money into an account (e.g. 10,000 or 12.50).",
            usage: "moa account deposit [--home <dir>] [--json] [--no-color] [--verbose] <account> <amount> [--memo <memo>]",
            discussion: AmountArgument.bounds)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Account number or id.") var account: String
        @Argument(parsing: .allUnrecognized, help: AmountArgument.help) var amount: [String] = []
        @Option(help: AmountArgument.memoHelp) var memo: String?

        func validate() throws { _ = try SignedArgument.single(amount) }

        func run(in environment: AccountEnvironment, context: CommandContext) async throws {
            try await AccountScreen.show(.deposit(account, amount: try SignedArgument.single(amount), memo: memo), environment, context)
        }
    }

    struct Withdraw: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "withdraw",
            abstract: "Take money out of an account.",
            usage: "moa account withdraw [--home <dir>] [--json] [--no-color] [--verbose] <account> <amount> [--memo <memo>]",
            discussion: AmountArgument.bounds)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Account number or id.") var account: String
        @Argument(parsing: .allUnrecognized, help: AmountArgument.help) var amount: [String] = []
        @Option(help: AmountArgument.memoHelp) var memo: String?

        func validate() throws { _ = try SignedArgument.single(amount) }

        func run(in environment: AccountEnvironment, context: CommandContext) async throws {
            try await AccountScreen.show(.withdraw(account, amount: try SignedArgument.single(amount), memo: memo), environment, context)
        }
    }

    struct History: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "history", abstract: "An account's movements, newest first, page by page.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Account number or id.") var account: String
        @Option(parsing: .unconditional, help: "Entries per page (1–200).") var limit = 20
        @Option(help: "The cursor printed under the previous page.") var after: String?
        func run(in environment: AccountEnvironment, context: CommandContext) async throws {
            try await AccountScreen.show(.history(account, limit: limit, after: after), environment, context)
        }
    }

    struct Close: ServiceCommand {
        static let configuration = CommandConfiguration(commandName: "close", abstract: "Close an account (its balance must be zero).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Account number or id.") var account: String
        func run(in environment: AccountEnvironment, context: CommandContext) async throws {
            try await AccountScreen.show(.close(account), environment, context)
        }
    }
}

/// The `--json` shapes. An account, an entry and a history page are the records the API shows too
/// (AccountDomain's `AccountRecord`, `LedgerEntry`, `HistoryRecord`: one shape each, written once);
/// only `show`'s account with its recent entries is the command line's own.
enum AccountJSON {
    struct Detail: Encodable {
        let account: AccountRecord
        let recent: [LedgerEntry]
    }

    static func make(_ outcome: AccountsViewModel.Outcome) -> any Encodable {
        switch outcome {
        case .opened(let a), .renamed(let a), .closed(let a): AccountRecord(a)
        case .accounts(let list): list.map(AccountRecord.init)
        case .account(let a, let recent): Detail(account: AccountRecord(a), recent: recent)
        case .moved(let entry): entry
        case .history(let a, let page): HistoryRecord(account: a, page: page)
        }
    }
}
