import AccountAPI
import AccountDomain
import AccountInterface
import Money

// Account's values as the API's types (docs/api/openapi.yaml): the same fields as `moa … --json`.

extension Components.Schemas.Money {
    init(_ money: Money) {
        self.init(minorUnits: money.minorUnits, currency: money.currency.code)
    }
}

extension AccountKind {
    init(_ type: Components.Schemas.AccountType) {
        self =
            switch type {
            case .checking: .checking
            case .savings: .savings
            case .investment: .investment
            }
    }
}

extension Components.Schemas.AccountType {
    init(_ kind: AccountKind) {
        self =
            switch kind {
            case .checking: .checking
            case .savings: .savings
            case .investment: .investment
            }
    }
}

extension Components.Schemas.Account {
    init(_ account: AccountSummary) {
        self.init(
            id: account.id.rawValue, number: account.number.description, name: account.name, _type: .init(account.kind),
            balance: .init(account.balance), closed: account.isClosed, openedAt: account.openedAt)
    }
}

extension Components.Schemas.LedgerEntry {
    init(_ entry: LedgerEntry) {
        let kind: KindPayload =
            switch entry.kind {
            case .deposit: .deposit
            case .withdrawal: .withdrawal
            case .transferIn: .transferIn
            case .transferOut: .transferOut
            }
        self.init(
            id: entry.id, account: entry.account.description, kind: kind, amount: .init(entry.amount),
            balanceAfter: .init(entry.balanceAfter), counterparty: entry.counterparty?.description, memo: entry.memo,
            reference: entry.reference, at: entry.at)
    }
}
