import AccountDomain
import AccountInterface
import AuthDomain
import AuthInterface
import Foundation
import InboxDomain
import MoaAPI
import OpenAPIRuntime
import SettingsDomain
import SharedKit
import Storage
import TransferDomain
import TransferInterface

/// The operations of docs/api/openapi.yaml: the generated `APIProtocol`, implemented on the composed
/// use cases. The generated server code (Generated/Server.swift) decodes each request — refusing
/// unknown fields and wrong types — and encodes each response as the document says.
///
/// Every handler passes what the request says, as text, to the same Domain use case `moa` runs, so
/// every rule (amounts, limits, idempotency, ownership, the typed input rules) is enforced here,
/// where no client can skip it. Handlers return only successes; every error is thrown and becomes
/// a problem document (``ProblemMiddleware``, ``Problem/init(_:now:)``).
struct ServerAPI: APIProtocol {
    /// This document's `info.version`.
    static let apiVersion = "1.1.0"

    let engine: MoaServer.Engine
    let services: ServerServices
    /// Where the requests that hash a password run (off the cooperative pool, one per core).
    let passwordWork: PasswordWork
    /// Where transfers are counted (committed, replayed, refused by kind).
    let metrics: ServerMetrics

    /// Alive: the process answers. Whether the database does is `/readyz`'s question (``OperationsRoutes``).
    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        .ok(.init(body: .json(.init(status: .ok, version: ServerCommand.version, apiVersion: Self.apiVersion))))
    }

    // MARK: Auth

    // Sign-up, verification, resend and reset answer alike for every address — the same body,
    // never the outbox file, and no sooner than `AlikeTime.floor` — so neither the answer nor its
    // time tells whether an address has an account.

    func signUp(_ input: Operations.SignUp.Input) async throws -> Operations.SignUp.Output {
        guard case .json(let body) = input.body else { throw Self.notJSON }
        let (email, password) = (try Bound.email(body.email), try Bound.password(body.password, "/password"))
        let registration = services.registration
        let sent = try await AlikeTime.answer { try await registration.signUp(email: email, password: password) }
        return .created(.init(body: .json(.init(status: .codeSent, email: sent.email))))
    }

    func verifyEmail(_ input: Operations.VerifyEmail.Input) async throws -> Operations.VerifyEmail.Output {
        guard case .json(let body) = input.body else { throw Self.notJSON }
        let email = try Bound.email(body.email)
        let (code, password) = (try Bound.text(body.code, "/code", 32), try Bound.password(body.password, "/password"))
        let registration = services.registration
        try await AlikeTime.answer {
            try await passwordWork.run { try await registration.verify(email: email, code: code, password: password) }
        }
        return .ok(.init(body: .json(.init(status: .verified, email: try EmailAddress(email).value))))
    }

    func resendVerificationCode(_ input: Operations.ResendVerificationCode.Input) async throws
        -> Operations.ResendVerificationCode.Output
    {
        guard case .json(let body) = input.body else { throw Self.notJSON }
        let email = try Bound.email(body.email)
        let registration = services.registration
        let sent = try await AlikeTime.answer { try await registration.resendCode(email: email) }
        return .ok(.init(body: .json(.init(status: .codeSent, email: sent.email))))
    }

    func logIn(_ input: Operations.LogIn.Input) async throws -> Operations.LogIn.Output {
        guard case .json(let body) = input.body else { throw Self.notJSON }
        let (email, password) = (try Bound.email(body.email), try Bound.password(body.password, "/password"))
        let tokens = services.tokens
        let session = try await passwordWork.run { try await tokens.logIn(email: email, password: password) }
        return .ok(.init(body: .json(.init(session))))
    }

    func refreshSession(_ input: Operations.RefreshSession.Input) async throws -> Operations.RefreshSession.Output {
        guard case .json(let body) = input.body else { throw Self.notJSON }
        let token = try Bound.text(body.refreshToken, "/refresh_token", BearerToken.maximumLength)
        guard let session = try await services.tokens.refresh(refreshToken: token) else {
            throw Problem.unauthenticated(tokenGiven: true)
        }
        return .ok(.init(body: .json(.init(session))))
    }

    func logOut(_ input: Operations.LogOut.Input) async throws -> Operations.LogOut.Output {
        let everywhere =
            switch input.body {
            case .json(let body): body.everywhere ?? false
            case nil: false
            }
        let (user, session) = try Self.requireAuthenticated()
        try await services.tokens.logOut(session, user: user, everywhere: everywhere)
        return .ok(.init(body: .json(.init(status: .loggedOut, email: user.email, userId: user.id.rawValue, everywhere: everywhere))))
    }

    func getSession(_ input: Operations.GetSession.Input) async throws -> Operations.GetSession.Output {
        let (user, session) = try Self.requireAuthenticated()
        return .ok(
            .init(
                body: .json(
                    .init(status: .loggedIn, email: user.email, userId: user.id.rawValue, sessionUntil: session.refreshExpiresAt))))
    }

    func changePassword(_ input: Operations.ChangePassword.Input) async throws -> Operations.ChangePassword.Output {
        guard case .json(let body) = input.body else { throw Self.notJSON }
        let (user, _) = try Self.requireAuthenticated()
        let current = try Bound.password(body.currentPassword, "/current_password")
        let new = try Bound.password(body.newPassword, "/new_password")
        let tokens = services.tokens
        let session = try await passwordWork.run { try await tokens.changePassword(of: user, current: current, new: new) }
        return .ok(.init(body: .json(.init(session))))
    }

    func requestPasswordReset(_ input: Operations.RequestPasswordReset.Input) async throws -> Operations.RequestPasswordReset.Output {
        guard case .json(let body) = input.body else { throw Self.notJSON }
        let address = try Bound.email(body.email)
        let reset = services.passwordReset
        let email = try await AlikeTime.answer { try await reset.request(email: address) }
        return .accepted(.init(body: .json(.init(status: .resetCodeRequested, email: email))))
    }

    func completePasswordReset(_ input: Operations.CompletePasswordReset.Input) async throws
        -> Operations.CompletePasswordReset.Output
    {
        guard case .json(let body) = input.body else { throw Self.notJSON }
        let (email, code) = (try Bound.email(body.email), try Bound.text(body.code, "/code", 32))
        let newPassword = try Bound.password(body.newPassword, "/new_password")
        let reset = services.passwordReset
        let user = try await AlikeTime.answer {
            try await passwordWork.run { try await reset.complete(email: email, code: code, newPassword: newPassword) }
        }
        return .ok(
            .init(body: .json(.init(status: .passwordReset, email: user.email, userId: user.id.rawValue, sessions: "all-revoked"))))
    }

    func deleteUser(_ input: Operations.DeleteUser.Input) async throws -> Operations.DeleteUser.Output {
        guard case .json(let body) = input.body else { throw Self.notJSON }
        _ = try Self.requireAuthenticated()
        let report = try await services.deletion.delete(confirmation: try Bound.text(body.confirmation, "/confirmation", 320))
        return .ok(
            .init(
                body: .json(
                    .init(status: .deleted, email: report.user.email, userId: report.user.id.rawValue, erased: report.erased))))
    }

    // MARK: Account

    func listAccounts(_ input: Operations.ListAccounts.Input) async throws -> Operations.ListAccounts.Output {
        let page = try await services.accounts.listPage(
            limit: input.query.limit ?? 200, after: try input.query.cursor.map { try Bound.text($0, "cursor", 128) })
        return .ok(.init(headers: .init(moaNextCursor: page.nextCursor), body: .json(page.accounts.map(Components.Schemas.Account.init))))
    }

    func openAccount(_ input: Operations.OpenAccount.Input) async throws -> Operations.OpenAccount.Output {
        guard case .json(let body) = input.body else { throw Self.notJSON }
        let kind: AccountKind =
            switch body._type {
            case .checking: .checking
            case .savings: .savings
            case .investment: .investment
            }
        let account = try await services.accounts.open(
            kind: kind, name: try Bound.text(body.name, "/name", 256), currency: try Bound.text(body.currency ?? "KRW", "/currency", 16))
        return .created(.init(body: .json(.init(account))))
    }

    func getAccount(_ input: Operations.GetAccount.Input) async throws -> Operations.GetAccount.Output {
        .ok(.init(body: .json(.init(try await services.accounts.show(try Bound.account(input.path.account))))))
    }

    func renameAccount(_ input: Operations.RenameAccount.Input) async throws -> Operations.RenameAccount.Output {
        guard case .json(let body) = input.body else { throw Self.notJSON }
        let account = try await services.accounts.rename(try Bound.account(input.path.account), to: try Bound.text(body.name, "/name", 256))
        return .ok(.init(body: .json(.init(account))))
    }

    func closeAccount(_ input: Operations.CloseAccount.Input) async throws -> Operations.CloseAccount.Output {
        .ok(.init(body: .json(.init(try await services.accounts.close(try Bound.account(input.path.account))))))
    }

    func deposit(_ input: Operations.Deposit.Input) async throws -> Operations.Deposit.Output {
        guard case .json(let body) = input.body else { throw Self.notJSON }
        let entry = try await services.accounts.deposit(
            try Bound.text(body.amount, "/amount", 64), to: try Bound.account(input.path.account), memo: try Bound.memo(body.memo))
        return .created(.init(body: .json(.init(entry))))
    }

    func withdraw(_ input: Operations.Withdraw.Input) async throws -> Operations.Withdraw.Output {
        guard case .json(let body) = input.body else { throw Self.notJSON }
        let entry = try await services.accounts.withdraw(
            try Bound.text(body.amount, "/amount", 64), from: try Bound.account(input.path.account), memo: try Bound.memo(body.memo))
        return .created(.init(body: .json(.init(entry))))
    }

    func listAccountHistory(_ input: Operations.ListAccountHistory.Input) async throws -> Operations.ListAccountHistory.Output {
        let reference = try Bound.account(input.path.account)
        let page = try await services.accounts.history(
            of: reference, limit: input.query.limit ?? 20, after: try input.query.cursor.map { try Bound.text($0, "cursor", 128) })
        let account = try await services.accounts.show(reference)
        return .ok(
            .init(
                body: .json(
                    .init(
                        account: .init(account), entries: page.entries.map(Components.Schemas.LedgerEntry.init),
                        nextCursor: page.nextCursor))))
    }

    // MARK: Transfer

    func listTransfers(_ input: Operations.ListTransfers.Input) async throws -> Operations.ListTransfers.Output {
        let page = try await services.transfers.transfers(
            limit: input.query.limit ?? 20, after: try input.query.cursor.map { try Bound.text($0, "cursor", 128) })
        return .ok(
            .init(body: .json(.init(transfers: page.transfers.map { .init($0, replayed: nil) }, nextCursor: page.nextCursor))))
    }

    func sendTransfer(_ input: Operations.SendTransfer.Input) async throws -> Operations.SendTransfer.Output {
        guard case .json(let body) = input.body else { throw Self.notJSON }
        let receipt: TransferReceipt
        do {
            let draft = TransferDraft(
                from: try Bound.text(body.from, "/from", 64), to: try Bound.text(body.to, "/to", 128),
                amount: try Bound.text(body.amount, "/amount", 64), memo: try Bound.memo(body.memo),
                idempotencyKey: try Bound.text(input.headers.idempotencyKey, "Idempotency-Key", 128))
            receipt = try await services.sendMoney.send(draft)
        } catch {
            metrics.transfer(
                .refused(kind: (error as? any UserFacingError).map { Problem($0).kind } ?? (error as? Problem)?.kind ?? "internal"))
            throw error
        }
        metrics.transfer(receipt.replayed ? .replayed : .committed)
        let transfer = Components.Schemas.Transfer(receipt.transfer, replayed: receipt.replayed)
        return receipt.replayed ? .ok(.init(body: .json(transfer))) : .created(.init(body: .json(transfer)))
    }

    func getTransfer(_ input: Operations.GetTransfer.Input) async throws -> Operations.GetTransfer.Output {
        let id = try Bound.text(input.path.transferId, "transfer_id", 64)
        return .ok(.init(body: .json(.init(try await services.transfers.transfer(id: TransferID(id)), replayed: nil))))
    }

    func listRecipients(_ input: Operations.ListRecipients.Input) async throws -> Operations.ListRecipients.Output {
        let recipients = try await services.recipients.recipients()
        return .ok(
            .init(
                body: .json(
                    .init(
                        favourites: recipients.favourites.map(Components.Schemas.FavouriteRecipient.init),
                        recents: recipients.recents.map { .init($0, favourites: recipients.favourites) }))))
    }

    func addFavouriteRecipient(_ input: Operations.AddFavouriteRecipient.Input) async throws -> Operations.AddFavouriteRecipient.Output {
        guard case .json(let body) = input.body else { throw Self.notJSON }
        let favourite = try await services.recipients.add(
            number: try Bound.text(body.number, "/number", 64), alias: try Bound.text(body.alias, "/alias", 128))
        return .created(.init(body: .json(.init(favourite))))
    }

    func removeFavouriteRecipient(_ input: Operations.RemoveFavouriteRecipient.Input) async throws
        -> Operations.RemoveFavouriteRecipient.Output
    {
        let removed = try await services.recipients.remove(alias: try Bound.text(input.path.alias, "alias", 128))
        return .ok(.init(body: .json(.init(removed))))
    }

    // MARK: Inbox

    func listNotices(_ input: Operations.ListNotices.Input) async throws -> Operations.ListNotices.Output {
        if let before = input.query.before, before < 1 {
            throw Problem.invalidParameter("before is a notice id, 1 or more, not \(before).", name: "before")
        }
        let page = try await services.inbox.list(
            unreadOnly: input.query.unread ?? false, limit: input.query.limit ?? InboxService.defaultLimit,
            before: input.query.before.map(String.init))
        return .ok(
            .init(
                body: .json(
                    .init(
                        notices: page.notices.map(Components.Schemas.Notice.init), unreadCount: page.unreadCount,
                        nextBefore: page.nextBefore))))
    }

    func markNoticeRead(_ input: Operations.MarkNoticeRead.Input) async throws -> Operations.MarkNoticeRead.Output {
        guard input.path.noticeId >= 1 else {
            throw Problem.invalidParameter("A notice id is 1 or more, not \(input.path.noticeId).", name: "notice_id")
        }
        let result = try await services.inbox.markRead(String(input.path.noticeId))
        return .ok(.init(body: .json(.init(notice: .init(result.notice), wasUnread: result.wasUnread))))
    }

    func markAllNoticesRead(_ input: Operations.MarkAllNoticesRead.Input) async throws -> Operations.MarkAllNoticesRead.Output {
        .ok(.init(body: .json(.init(marked: try await services.inbox.markAllRead()))))
    }

    // MARK: Settings (only the ones that protect money live on the server)

    func listSettings(_ input: Operations.ListSettings.Input) async throws -> Operations.ListSettings.Output {
        _ = try Self.requireAuthenticated()
        var settings: [Components.Schemas.Setting] = []
        for key in Components.Schemas.SettingKey.allCases {
            settings.append(try Components.Schemas.Setting(try await services.settings.entry(named: key.rawValue).entry))
        }
        return .ok(.init(body: .json(settings)))
    }

    func getSetting(_ input: Operations.GetSetting.Input) async throws -> Operations.GetSetting.Output {
        _ = try Self.requireAuthenticated()
        return .ok(.init(body: .json(try .init(try await services.settings.entry(named: input.path.key.rawValue).entry))))
    }

    func putSetting(_ input: Operations.PutSetting.Input) async throws -> Operations.PutSetting.Output {
        guard case .json(let body) = input.body else { throw Self.notJSON }
        _ = try Self.requireAuthenticated()
        let setting = try await services.settings.set(input.path.key.rawValue, to: try Bound.text(body.value, "/value", 64))
        return .ok(.init(body: .json(try .init(setting.entry))))
    }

    func resetSetting(_ input: Operations.ResetSetting.Input) async throws -> Operations.ResetSetting.Output {
        _ = try Self.requireAuthenticated()
        let (setting, _) = try await services.settings.reset(input.path.key.rawValue)
        return .ok(.init(body: .json(try .init(setting.entry))))
    }

    // MARK: Helpers

    /// The request's user and session, or 401 (settings would otherwise fall back to the device's).
    static func requireAuthenticated() throws -> (AuthenticatedUser, SessionRecord) {
        guard let authenticated = RequestUser.current?.authenticated else {
            throw Problem.unauthenticated(tokenGiven: RequestUser.current?.tokenGiven ?? false)
        }
        return authenticated
    }

    /// A body of another content type than the one operation declares (the generated code refuses
    /// those before the handler; this keeps the switch total).
    static let notJSON = Problem(
        kind: "unsupported-media-type", title: "Unsupported media type", status: .unsupportedMediaType,
        detail: "The request body must be application/json.", exitStatus: .dataError)

}

/// Answers that must not tell, by their time, whether an address has an account: each takes at
/// least ``floor`` from its start, success or error alike (the work behind them — a lookup, a code
/// saved, a mail written — takes a few milliseconds, and differs by address).
enum AlikeTime {
    static let floor: Duration = .milliseconds(250)

    static func answer<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        let start = ContinuousClock.now
        let result: Result<T, any Error>
        do {
            result = .success(try await work())
        } catch {
            result = .failure(error)
        }
        try? await Task.sleep(until: start + floor, clock: .continuous)
        return try result.get()
    }
}

/// The transport bounds of docs/api/openapi.yaml (`maxLength`, in Unicode code points), checked
/// before any Domain parser sees the text; the Domain's own rules are stricter and come next.
enum Bound {
    static func text(_ value: String, _ pointer: String, _ maximum: Int) throws -> String {
        guard value.unicodeScalars.count <= maximum else { throw Problem.tooLong(pointer, maximum: maximum) }
        return value
    }

    static func email(_ value: String) throws -> String { try text(value, "/email", 320) }
    static func password(_ value: String, _ pointer: String) throws -> String { try text(value, pointer, 1_024) }
    static func memo(_ value: String?) throws -> String? { try value.map { try text($0, "/memo", 1_024) } }
    static func account(_ value: String) throws -> String { try text(value, "account", 32) }
}
