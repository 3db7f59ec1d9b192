import APIServing
import AccountAPI
import AccountDomain
import AccountInterface
import Foundation
import OpenAPIRuntime
import SharedKit

/// The operations of docs/api/openapi.yaml tagged Account (AccountAPI's `APIProtocol`), on the
/// account use cases `moa` runs: every rule of the ledger holds where no client can skip it.
public struct AccountHandlers: APIProtocol {
    let accounts: any AccountUseCases

    public init(accounts: any AccountUseCases) {
        self.accounts = accounts
    }

    public func listAccounts(_ input: Operations.ListAccounts.Input) async throws -> Operations.ListAccounts.Output {
        let page = try await accounts.listPage(limit: input.query.limit ?? 200, after: try Bound.cursor(input.query.cursor))
        return .ok(.init(headers: .init(moaNextCursor: page.nextCursor), body: .json(page.accounts.map(AccountRecord.init))))
    }

    public func openAccount(_ input: Operations.OpenAccount.Input) async throws -> Operations.OpenAccount.Output {
        guard case .json(let body) = input.body else { throw Problem.notJSON }
        let account = try await accounts.open(
            kind: AccountKind(body._type), name: try Bound.text(body.name, "/name", 256),
            currency: try Bound.text(body.currency ?? "KRW", "/currency", 16))
        return .created(.init(body: .json(.init(account))))
    }

    public func getAccount(_ input: Operations.GetAccount.Input) async throws -> Operations.GetAccount.Output {
        .ok(.init(body: .json(.init(try await accounts.show(try Self.account(input.path.account))))))
    }

    public func renameAccount(_ input: Operations.RenameAccount.Input) async throws -> Operations.RenameAccount.Output {
        guard case .json(let body) = input.body else { throw Problem.notJSON }
        let account = try await accounts.rename(try Self.account(input.path.account), to: try Bound.text(body.name, "/name", 256))
        return .ok(.init(body: .json(.init(account))))
    }

    public func closeAccount(_ input: Operations.CloseAccount.Input) async throws -> Operations.CloseAccount.Output {
        .ok(.init(body: .json(.init(try await accounts.close(try Self.account(input.path.account))))))
    }

    public func deposit(_ input: Operations.Deposit.Input) async throws -> Operations.Deposit.Output {
        guard case .json(let body) = input.body else { throw Problem.notJSON }
        let entry = try await accounts.deposit(
            try Bound.text(body.amount, "/amount", 64), to: try Self.account(input.path.account), memo: try Bound.memo(body.memo))
        return .created(.init(body: .json(entry)))
    }

    public func withdraw(_ input: Operations.Withdraw.Input) async throws -> Operations.Withdraw.Output {
        guard case .json(let body) = input.body else { throw Problem.notJSON }
        let entry = try await accounts.withdraw(
            try Bound.text(body.amount, "/amount", 64), from: try Self.account(input.path.account), memo: try Bound.memo(body.memo))
        return .created(.init(body: .json(entry)))
    }

    public func listAccountHistory(_ input: Operations.ListAccountHistory.Input) async throws -> Operations.ListAccountHistory.Output {
        let reference = try Self.account(input.path.account)
        let page = try await accounts.history(of: reference, limit: input.query.limit ?? 20, after: try Bound.cursor(input.query.cursor))
        let account = try await accounts.show(reference)
        return .ok(.init(body: .json(HistoryRecord(account: account, page: page))))
    }

    /// An account reference of the path (its number or its name), within the document's bound.
    static func account(_ value: String) throws -> String { try Bound.text(value, "account", 32) }
}

/// Account's refusals of their own kind: money that is not there.
public enum AccountProblems {
    public static let classifier: ProblemCatalog.Classifier = { error, _ in
        switch error {
        case PostingError.insufficientFunds: ProblemCatalog.conflict(error, kind: "insufficient-funds", title: "Insufficient funds")
        default: nil
        }
    }
}
