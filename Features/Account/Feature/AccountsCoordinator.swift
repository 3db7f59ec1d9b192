import AccountDomain
import AccountInterface
import CommandKit
import DesignSystem
import Money
import Registry
import SharedKit
import TransferInterface
import ViewModelKit

/// Account's entry in the interactive home.
public enum AccountHomeEntryKey: ServiceKey { public typealias Service = HomeEntry }

/// The accounts flow of the interactive mode: list → detail → send money → receipt → back to the
/// detail with its new balance. The coordinator owns this navigation; "send money" is Transfer's,
/// started only through `TransferStarter` (TransferInterface). When asking where to send, it offers
/// the user's favourites, then their recent recipients (`RecipientsReading`), numbered.
@MainActor
final class AccountsCoordinator: Coordinator {
    enum Route: Hashable, Sendable {
        case list
        case detail(AccountNumber)
        case send(from: AccountNumber)
        case receipt(TransferReceipt)
    }

    let router = Router(root: Route.list)
    private let screen: Screen
    private let viewModel: AccountsViewModel
    private let transfers: any TransferStarter
    private let recipients: (any RecipientsReading)?

    /// - Parameter recipients: what to offer when asking for the destination (`nil`: only ask).
    init(screen: Screen, service: any AccountUseCases, transfers: any TransferStarter, recipients: (any RecipientsReading)? = nil) {
        self.screen = screen
        self.viewModel = AccountsViewModel(service: service)
        self.transfers = transfers
        self.recipients = recipients
    }

    private func text(_ en: String, _ ko: String) -> String { screen.context.text(LocalizedText(en: en, ko: ko)) }

    func show(_ route: Route) async -> Navigation<Route> {
        switch route {
        case .list: await list()
        case .detail(let number): await detail(number)
        case .send(let from): await send(from: from)
        case .receipt(let receipt): receiptScreen(receipt)
        }
    }

    private func list() async -> Navigation<Route> {
        guard case .accounts(let accounts)? = await send(.list) else { return .finish }
        screen.show(AccountScreen.render(.accounts(accounts), theme: screen.theme))
        let open = accounts.filter { !$0.isClosed }
        let options = open.map { "\($0.name) · \($0.number) · \($0.balance.formatted())" } + [text("Open an account", "계좌 개설")]
        guard let choice = screen.choose(text("Accounts", "계좌"), options) else { return .finish }
        if choice < open.count { return .push(.detail(open[choice].number)) }
        await openAccount()
        return .replace(.list)
    }

    private func detail(_ number: AccountNumber) async -> Navigation<Route> {
        guard let outcome = await send(.show(number.description)) else { return .pop }
        screen.show(AccountScreen.render(outcome, theme: screen.theme))
        let choice = screen.choose(
            text("What next?", "다음 작업"),
            [
                text("Send money", "송금하기"), text("Deposit", "입금"), text("Withdraw", "출금"),
            ])
        switch choice {
        case 0?: return .push(.send(from: number))
        case 1?, 2?:
            if let amount = screen.ask(text("Amount:", "금액:")), !amount.isEmpty {
                let memo = screen.ask(text("Memo (optional):", "메모(선택):"))
                let input: AccountsViewModel.Input =
                    choice == 1
                    ? .deposit(number.description, amount: amount, memo: memo)
                    : .withdraw(number.description, amount: amount, memo: memo)
                if let moved = await send(input) { screen.show(AccountScreen.render(moved, theme: screen.theme)) }
            }
            return .replace(.detail(number))
        default:
            return .pop
        }
    }

    /// The send form. Each answer is checked as it is given, and asked again when it is wrong: the
    /// destination (a listed recipient, a well-formed account number other than the source, or a
    /// favourite's @alias), the amount (a positive amount of the source's currency, within the bounds
    /// and the balance) and the memo. A refusal after the confirmation (a limit, an unknown account)
    /// starts the form again. An empty answer or the end of input goes back.
    private func send(from: AccountNumber) async -> Navigation<Route> {
        guard case .account(let source, _)? = await send(.show(from.description)) else { return .pop }
        guard let destination = await askDestination(from: from),
            let amount = askAmount(of: source),
            let memo = askMemo()
        else { return .pop }
        screen.show(
            Card(
                title: text("Send money", "송금"),
                lines: KeyValueRows([
                    text("From", "보내는 계좌"): from.description,
                    text("To", "받는 계좌"): destination.shown,
                    text("Amount", "금액"): amount,
                    text("Memo", "메모"): memo ?? "—",
                ]).render(theme: screen.theme).components(separatedBy: "\n")
            ).render(theme: screen.theme))
        guard screen.confirm(text("Send it?", "송금할까요?")) else {
            screen.say(text("Not sent.", "송금하지 않았습니다."))
            return .pop
        }
        do {
            let receipt = try await transfers.send(TransferDraft(from: from.description, to: destination.to, amount: amount, memo: memo))
            return .replace(.receipt(receipt))
        } catch {
            screen.showError(AccountsViewModel.userFacing(error))
            return .replace(.send(from: from))
        }
    }

    /// The amount, asked until it is a positive amount of `source`'s currency within the bounds and
    /// the balance; `nil`: back.
    private func askAmount(of source: AccountSummary) -> String? {
        while true {
            guard let typed = screen.ask(text("Amount:", "금액:")), !typed.isEmpty else { return nil }
            let amount: OperationAmount
            do {
                amount = try OperationAmount(parsing: typed, currency: source.balance.currency)
            } catch {
                screen.showError(AccountsViewModel.userFacing(error))
                continue
            }
            guard amount.money.minorUnits <= source.balance.minorUnits else {
                screen.showError(PostingError.insufficientFunds(source.number, balance: source.balance, requested: amount.money))
                continue
            }
            return typed
        }
    }

    /// The memo (none when left empty), asked until it is one a transfer can carry; `nil`: end of input.
    private func askMemo() -> String?? {
        while true {
            guard let typed = screen.ask(text("Memo (optional):", "메모(선택):")) else { return nil }
            do {
                return .some(try Memo.parse(typed).map(\.text))
            } catch {
                screen.showError(error)
            }
        }
    }

    /// A destination: what the draft carries (an account number or `@alias`) and how the card shows it.
    struct Destination: Equatable {
        let to: String
        let shown: String
    }

    /// Asks where to send. With favourites or recent recipients, lists them (favourites first, then
    /// recents not already listed; the source account left out), numbered, and takes a number from
    /// the list, an account number or an `@alias`; without any, asks for the account number alone.
    /// A wrong answer is said and asked again. `nil`: back (empty answer, `0`, end of input).
    private func askDestination(from: AccountNumber) async -> Destination? {
        let list = try? await recipients?.recipients()
        let offered = offeredRecipients(list, excluding: from)
        if !offered.isEmpty {
            var lines = [screen.theme.paint(text("Send to", "받는 사람"), .heading)]
            for (index, recipient) in offered.enumerated() { lines.append("  \(index + 1). \(recipient.shown)") }
            lines.append(screen.theme.paint("  0. " + text("Back", "뒤로"), .muted))
            screen.show(lines.joined(separator: "\n"))
        }
        while true {
            let question =
                offered.isEmpty
                ? text("To account number:", "받는 계좌번호:")
                : text("To (a number from the list, an account number or @alias):", "받는 계좌(목록의 번호, 계좌번호 또는 @별칭):")
            guard let answer = screen.ask(question), !answer.isEmpty, offered.isEmpty || answer != "0" else { return nil }
            if !offered.isEmpty, answer.count <= 3, let choice = Int(answer), (1...offered.count).contains(choice) {
                return offered[choice - 1]
            }
            if answer.hasPrefix("@"), let favourite = offered.first(where: { $0.to.lowercased() == answer.lowercased() }) {
                return favourite
            }
            if accepts(answer, from: from, favourites: list) { return Destination(to: answer, shown: answer) }
        }
    }

    /// Whether `answer` can be sent to from `source`: an `@alias` of the user's (or, when the favourites
    /// cannot be read, any well-formed alias, which Transfer then checks), or a well-formed account
    /// number other than the source. Shows why not.
    private func accepts(_ answer: String, from source: AccountNumber, favourites: Recipients?) -> Bool {
        if answer.hasPrefix("@") {
            guard let favourites, favourites.favourite(named: answer) == nil else { return true }
            screen.showError(UnknownFavourite(alias: String(answer.dropFirst())))
            return false
        }
        do {
            let number = try AccountNumber(answer)
            guard number != source else { throw PostingError.sameAccount(number) }
            return true
        } catch {
            screen.showError(AccountsViewModel.userFacing(error))
            return false
        }
    }

    /// Favourites (`@alias · number`), then recents (`number`) that are not favourites; never the source.
    /// A list that could not be read (`nil`) only means none are offered.
    private func offeredRecipients(_ list: Recipients?, excluding source: AccountNumber) -> [Destination] {
        guard let list else { return [] }
        let favourites = list.favourites.filter { $0.accountNumber != source.description }
        let favouriteNumbers = Set(list.favourites.map(\.accountNumber))
        let recents = list.recents.filter { !favouriteNumbers.contains($0.accountNumber) && $0.accountNumber != source.description }
        return favourites.map { Destination(to: "@" + $0.alias, shown: "@\($0.alias) · \($0.accountNumber)") }
            + recents.map { Destination(to: $0.accountNumber, shown: $0.accountNumber + " · " + text("recent", "최근")) }
    }

    private func receiptScreen(_ receipt: TransferReceipt) -> Navigation<Route> {
        let transfer = receipt.transfer
        screen.show(
            Card(
                title: text("Receipt", "송금 영수증"),
                lines: KeyValueRows([
                    text("Sent", "보낸 금액"): transfer.amount.formatted(),
                    text("From", "보내는 계좌"): transfer.from,
                    text("To", "받는 계좌"): transfer.to,
                    text("Memo", "메모"): transfer.memo ?? "—",
                    text("Balance after", "송금 후 잔액"): transfer.fromBalanceAfter.formatted(),
                    text("Transfer", "거래 번호"): transfer.id.rawValue,
                ]).render(theme: screen.theme).components(separatedBy: "\n")
            ).render(theme: screen.theme))
        _ = screen.ask(text("Press Enter to go back to the account.", "Enter를 누르면 계좌로 돌아갑니다."))
        return .pop
    }

    private func openAccount() async {
        let kinds = AccountKind.allCases
        guard let kind = screen.choose(text("Which kind?", "어떤 계좌인가요?"), kinds.map(\.rawValue)),
            let name = screen.ask(text("Name:", "이름:")), !name.isEmpty
        else { return }
        if let opened = await send(.open(kind: kinds[kind], name: name, currency: "KRW")) {
            screen.show(AccountScreen.render(opened, theme: screen.theme))
        }
    }

    /// Sends an input to the view model; shows its error, if any.
    private func send(_ input: AccountsViewModel.Input) async -> AccountsViewModel.Outcome? {
        await viewModel.send(input)
        if let error = viewModel.state.error {
            screen.showError(error)
            return nil
        }
        return viewModel.state.outcome
    }
}

enum AccountHome {
    /// - Parameter recipients: Transfer's `RecipientsReading` (`RecipientsReadingKey`), offered when
    ///   asking where to send; `nil`: only ask.
    static func entry(service: any AccountUseCases, transfers: any TransferStarter, recipients: (any RecipientsReading)? = nil) -> HomeEntry
    {
        HomeEntry(title: LocalizedText(en: "Accounts and transfers", ko: "계좌와 송금")) { screen in
            let coordinator = await AccountsCoordinator(screen: screen, service: service, transfers: transfers, recipients: recipients)
            await coordinator.run()
        }
    }
}

/// An `@alias` that names none of the user's favourites, said before anything else is asked.
struct UnknownFavourite: UserFacingError {
    let alias: String
    var message: String { "You have no favourite recipient called @\(alias)." }
    var hint: String? { "Choose one from the list, or type an account number." }
    var exitStatus: ExitStatus { .unavailable }
}
