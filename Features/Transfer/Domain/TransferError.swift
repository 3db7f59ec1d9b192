import Foundation
import Money
import SharedKit

/// Transfer's own refusals and input errors (Account's `PostingError`s pass through unchanged).
/// Each message is one sentence; business-rule refusals exit 1, malformed input 65, unknown 69.
public enum TransferError: Error, UserFacingError, Equatable {
    /// The amount text is not an amount in the source account's currency (Money's reason).
    case invalidAmount(String)
    case amountNotPositive(Money)
    case overPerTransferLimit(amount: Money, limit: Money)
    case dailyLimitExceeded(amount: Money, limit: Money, remaining: Money)
    /// The key was already used by this user for a different request.
    case idempotencyKeyReused(String)
    case invalidIdempotencyKey(String)
    case invalidMemo
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

    public static let maximumMemoLength = 140
    public static let maximumKeyLength = 128
    public static let maximumAliasLength = 20
    public static let maximumFavourites = 100

    public var message: String {
        switch self {
        case .invalidAmount(let reason): reason
        case .amountNotPositive(let amount): "The amount must be more than zero, not \(amount.formatted())."
        case .overPerTransferLimit(let amount, let limit):
            "\(amount.formatted()) is above the per-transfer limit of \(limit.formatted())."
        case .dailyLimitExceeded(let amount, let limit, let remaining):
            "Sending \(amount.formatted()) would go over today's limit of \(limit.formatted()): \(remaining.formatted()) is left today."
        case .idempotencyKeyReused(let key):
            "The idempotency key “\(key)” was already used for a different transfer, so this one was not sent."
        case .invalidIdempotencyKey(let key):
            "“\(key)” is not a usable idempotency key: use 1 to \(Self.maximumKeyLength) characters without line breaks or control characters."
        case .invalidMemo:
            "The memo is not usable: keep it to \(Self.maximumMemoLength) characters on one line."
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
        case .dailyLimitExceeded: "Send the rest tomorrow, or raise transfer.daily-limit with `moa settings set`."
        case .overPerTransferLimit: "Split it, or raise transfer.per-transfer-limit with `moa settings set`."
        case .unknownSourceAccount: "See your accounts with `moa account list`."
        case .unknownAlias, .favouriteNotFound: "See your favourites with `moa transfer recipients`."
        case .aliasTaken: "Choose another alias, or remove the old one with `moa transfer recipients remove ALIAS`."
        case .alreadyAFavourite: "Remove it first to save it under another alias."
        case .tooManyFavourites: "Remove some with `moa transfer recipients remove ALIAS`."
        default: nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .amountNotPositive, .overPerTransferLimit, .dailyLimitExceeded, .idempotencyKeyReused, .unknownSourceAccount,
            .unknownAlias, .aliasTaken, .alreadyAFavourite, .tooManyFavourites:
            .refused
        case .invalidAmount, .invalidIdempotencyKey, .invalidMemo, .invalidCursor, .invalidPageSize, .invalidAlias: .dataError
        case .notFound, .favouriteNotFound: .unavailable
        }
    }
}
