import AccountAPI
import AccountDomain
import AccountInterface

// Account's kinds as the API's type of a request (docs/api/openapi.yaml). The records an answer
// carries need none: their types are AccountDomain's `AccountRecord`, `LedgerEntry` and `HistoryRecord`,
// the shapes `moa account … --json` prints too.

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
