import AccountInterface
import ArgumentParser
import Money

/// The help of the `<amount>` argument of `deposit` and `withdraw` (read with ``SignedArgument``, so
/// that `-5` is refused by the use case, "Amounts are positive", and not taken for an option).
enum AmountArgument {
    static let help = ArgumentHelp(
        "Amount in the account's currency, e.g. 10,000 or 12.50 (more than zero).", valueName: "amount")

    static let memoHelp = ArgumentHelp(
        "A note for the history: up to \(Memo.maximumLength) characters on one line, without control characters.")

    /// The documented bounds, for the commands' help.
    static let bounds = """
        One operation moves at most \(Money.grouped(AmountBounds.maximumOperationMinorUnits)) minor units of the account's currency \
        (\(AmountBounds.maximumOperation(in: .krw).formatted()), \(AmountBounds.maximumOperation(in: .usd).formatted())): \
        more is refused as bad data (exit status 65). An account holds at most \
        \(Money.grouped(AmountBounds.maximumBalanceMinorUnits)) minor units (\(AmountBounds.maximumBalance(in: .krw).formatted())): \
        a deposit past that is refused (exit status 1).
        """
}
