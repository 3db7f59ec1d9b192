import AccountInterface
import Foundation
import Money
import SettingsInterface
import SharedKit

/// Transfer's own refusals and input errors (Account's `PostingError`s pass through unchanged).
/// Each message is one sentence; business-rule refusals exit 1, a page size out of range 64, malformed
/// input 65, what names nothing (an account, a transfer, a favourite) 69.
public enum TransferError: Error, UserFacingError, Equatable {
    case overPerTransferLimit(amount: Money, limit: Money)
    case dailyLimitExceeded(amount: Money, limit: Money, remaining: Money)
    /// The currency has no transfer limits, so nothing may be sent in it.
    case noLimits(Currency)
    /// The key was already used by this user for a different request.
    case idempotencyKeyReused(String)
    case invalidIdempotencyKey(String)
    /// `--from` names no account of the user's (by id).
    case unknownSourceAccount(String)
    case notFound(String)
    case invalidCursor
    case invalidPageSize(Int)
    /// An alias that breaks the rules (as typed).
    case invalidAlias(String)
    /// `--to @alias` names none of the user's favourites: nothing was sent.
    case unknownAlias(String)
    /// `recipients remove` names none of the user's favourites.
    case favouriteNotFound(String)
    /// Adding a favourite under an alias the user already has (case ignored): the existing one.
    case aliasTaken(alias: String, accountNumber: String)
    /// Adding a favourite for a number the user already saved, under `alias`.
    case alreadyAFavourite(accountNumber: String, alias: String)
    case tooManyFavourites(Int)

    /// The most characters a memo may have (Account's ``Memo`` rules).
    public static let maximumMemoLength = Memo.maximumLength
    public static let maximumKeyLength = 128
    public static let maximumAliasLength = 20
    public static let maximumFavourites = 100

    public var message: String {
        switch self {
        case .overPerTransferLimit(let amount, let limit):
            "\(amount.formatted()) is above the per-transfer limit of \(limit.formatted())."
        case .dailyLimitExceeded(let amount, let limit, let remaining):
            "Sending \(amount.formatted()) would go over today's limit of \(limit.formatted()): \(remaining.formatted()) is left today."
        case .noLimits(let currency): "Transfers in \(currency.code) have no limits set, so none can be sent."
        case .idempotencyKeyReused(let key):
            "The idempotency key “\(key)” was already used for a different transfer, so this one was not sent."
        case .invalidIdempotencyKey(let key):
            "“\(Self.shown(key))” is not a usable idempotency key: use 1 to \(Self.maximumKeyLength) characters without line breaks or control characters."
        case .unknownSourceAccount(let reference): "You have no account “\(reference)” to send from."
        case .notFound(let id): "You have no transfer “\(id)”."
        case .invalidCursor: "That cursor is not one `moa transfer list` gave."
        case .invalidPageSize(let limit): "The limit must be from 1 to 200, not \(limit)."
        case .invalidAlias(let alias):
            "“\(alias)” is not a usable alias: use 1 to \(Self.maximumAliasLength) letters, digits, “-” or “_”, in any script and with at least one letter (an “@” in front is optional)."
        case .unknownAlias(let alias): "You have no favourite recipient called @\(alias), so nothing was sent."
        case .favouriteNotFound(let alias): "You have no favourite recipient called @\(alias)."
        case .aliasTaken(let alias, let number): "You already have a favourite called @\(alias) (\(number))."
        case .alreadyAFavourite(let number, let alias): "\(number) is already one of your favourites, as @\(alias)."
        case .tooManyFavourites(let count): "You already have \(count) favourites, the most one can keep."
        }
    }

    public var hint: String? {
        switch self {
        case .idempotencyKeyReused: "Use a new key for a new transfer; the same key only repeats the same request."
        case .dailyLimitExceeded(_, let limit, _):
            limit.currency == TransferLimits.configurableCurrency
                ? "Send the rest tomorrow, or raise transfer.daily-limit with `moa settings set`."
                : "Send the rest tomorrow: the limits of \(limit.currency.code) are fixed (see `moa transfer send --help`)."
        case .overPerTransferLimit(_, let limit):
            limit.currency == TransferLimits.configurableCurrency
                ? "Split it, or raise transfer.per-transfer-limit with `moa settings set`."
                : "Split it: the limits of \(limit.currency.code) are fixed (see `moa transfer send --help`)."
        case .unknownSourceAccount: "See your accounts with `moa account list`."
        case .unknownAlias, .favouriteNotFound: "See your favourites with `moa transfer recipients`."
        case .aliasTaken: "Choose another alias, or remove the old one with `moa transfer recipients remove ALIAS`."
        case .alreadyAFavourite: "Remove it first to save it under another alias."
        case .tooManyFavourites: "Remove some with `moa transfer recipients remove ALIAS`."
        default: nil
        }
    }

    /// Text a person typed, as a message quotes it: cut to 40 characters.
    static func shown(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .overPerTransferLimit, .dailyLimitExceeded, .noLimits, .idempotencyKeyReused, .aliasTaken, .alreadyAFavourite,
            .tooManyFavourites:
            .refused
        case .invalidIdempotencyKey, .invalidCursor, .invalidAlias: .dataError
        case .invalidPageSize: .usage
        case .notFound, .unknownAlias, .favouriteNotFound, .unknownSourceAccount: .unavailable
        }
    }
}
