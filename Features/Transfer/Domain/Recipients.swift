import AccountInterface
import AuthInterface
import Foundation
import Persistence
import Registry
import SharedKit
import TransferInterface

/// A favourite's alias, typed with or without a leading `@`: 1 to 20 characters, each a letter or a
/// digit of any script (엄마, 친구, 월세, rent-2026), `-` or `_`, at least one of them a letter, so that no
/// alias reads like an account number. It is kept in Unicode NFC, as first spelled; two aliases the same
/// but for case or width (`Mom`, `MOM`, `ｍｏｍ`) are the same alias (``key``). Control, format and
/// bidirectional characters, spaces and punctuation are refused.
public struct RecipientAlias: Sendable, Hashable, CustomStringConvertible {
    /// As written (in NFC), without the `@`.
    public let name: String

    /// Parses `text` (trimmed; one leading `@` allowed).
    public init(_ text: String) throws(TransferError) {
        let trimmed = SendMoney.trimmed(text)
        let name = (trimmed.hasPrefix("@") ? String(trimmed.dropFirst()) : trimmed).precomposedStringWithCanonicalMapping
        guard (1...TransferError.maximumAliasLength).contains(name.count),
            name.unicodeScalars.allSatisfy(Self.isAllowed),
            name.unicodeScalars.contains(where: Self.isLetter)
        else { throw .invalidAlias(text) }
        self.name = name
    }

    /// The alias a destination names, when it starts with `@` (`nil`: it is meant as an account number).
    public static func inDestination(_ destination: String) throws(TransferError) -> RecipientAlias? {
        SendMoney.trimmed(destination).hasPrefix("@") ? try RecipientAlias(destination) : nil
    }

    /// What uniqueness and lookups compare: the name in Unicode NFKC (width and compatibility forms
    /// folded), in lower case.
    public var key: String { name.precomposedStringWithCompatibilityMapping.lowercased() }

    /// `@name`
    public var description: String { "@" + name }

    /// A letter of any script (a combining mark is not one: `0` with a mark above still reads as a digit).
    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: false
        }
    }

    /// Letters (with the marks some scripts combine them with) and digits of any script, `-` and `_`.
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "-" || scalar == "_" { return true }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber:
            return true
        default:
            return false
        }
    }
}

/// Transfer's records of recipients (TransferData implements it on SQLite). Recents are kept by the
/// transfer store itself, in the transaction of each transfer (``TransferStore/insert(_:in:)``).
public protocol RecipientStore: Sendable {
    /// The user's favourites, by alias (case ignored).
    func favourites(of user: UserID) async throws -> [FavouriteRecipient]
    /// The user's favourite under `alias` (compared by ``RecipientAlias/key``).
    func favourite(_ alias: RecipientAlias, of user: UserID) async throws -> FavouriteRecipient?
    /// Saves a favourite. Refuses, atomically, an alias the user already has
    /// (``TransferError/aliasTaken(alias:accountNumber:)``), a number already saved
    /// (``TransferError/alreadyAFavourite(accountNumber:alias:)``) and more than
    /// ``TransferError/maximumFavourites`` (``TransferError/tooManyFavourites(_:)``).
    func add(_ favourite: FavouriteRecipient, of user: UserID) async throws
    /// Removes the favourite under `alias`; what was removed (`nil`: there was none).
    func remove(_ alias: RecipientAlias, of user: UserID) async throws -> FavouriteRecipient?
    /// The last `limit` distinct destination accounts the user sent to, newest first.
    func recentRecipients(of user: UserID, limit: Int) async throws -> [RecentRecipient]
}

public enum RecipientStoreKey: ServiceKey { public typealias Service = any RecipientStore }

/// The logged-in user's favourites and recents: listed, added, removed, and resolved for `--to @alias`.
public struct RecipientBook: RecipientsReading {
    private let session: any SessionProvider
    private let store: any RecipientStore
    private let directory: any AccountDirectory
    private let clock: any WallClock

    public init(session: any SessionProvider, store: any RecipientStore, directory: any AccountDirectory, clock: any WallClock) {
        self.session = session
        self.store = store
        self.directory = directory
        self.clock = clock
    }

    public func recipients() async throws -> Recipients {
        let user = try await session.requireUser()
        return Recipients(
            favourites: try await store.favourites(of: user.id),
            recents: try await store.recentRecipients(of: user.id, limit: Recipients.recentLimit))
    }

    /// Saves `number` (checked like a transfer's destination: format, check digit, then that it
    /// exists) under `alias`.
    public func add(number: String, alias: String) async throws -> FavouriteRecipient {
        let alias = try RecipientAlias(alias)
        let number = try AccountNumber(number)
        let user = try await session.requireUser()
        guard try await directory.account(number: number) != nil else { throw PostingError.unknownAccount(number) }
        let favourite = FavouriteRecipient(alias: alias.name, accountNumber: number.description, addedAt: clock.now())
        try await store.add(favourite, of: user.id)
        return favourite
    }

    /// Removes the favourite under `alias` (``TransferError/favouriteNotFound(_:)`` when there is none).
    public func remove(alias: String) async throws -> FavouriteRecipient {
        let alias = try RecipientAlias(alias)
        let user = try await session.requireUser()
        guard let removed = try await store.remove(alias, of: user.id) else { throw TransferError.favouriteNotFound(alias.name) }
        return removed
    }

    /// The account number of the user's favourite `alias` (``TransferError/unknownAlias(_:)`` when none).
    func resolve(_ alias: RecipientAlias, of user: UserID) async throws -> AccountNumber {
        guard let favourite = try await store.favourite(alias, of: user) else { throw TransferError.unknownAlias(alias.name) }
        return try AccountNumber(favourite.accountNumber)
    }
}

/// What Transfer's recipients commands and screens ask, whoever answers: the embedded
/// ``RecipientBook``, or the App's remote implementation over `moa-server`'s API.
public protocol RecipientUseCases: RecipientsReading {
    /// Saves `number` (checked like a transfer's destination, and that it exists) under `alias`.
    func add(number: String, alias: String) async throws -> FavouriteRecipient
    /// Removes the favourite under `alias`.
    func remove(alias: String) async throws -> FavouriteRecipient
}

extension RecipientBook: RecipientUseCases {}

public enum RecipientBookKey: ServiceKey { public typealias Service = any RecipientUseCases }

// MARK: Deleting a user

/// What Transfer stores about a user, erased when the user is deleted (TransferData on SQLite).
public protocol TransferUserDataStore: Sendable {
    /// In `transaction`: removes the user's favourites, recents and daily totals, and replaces the
    /// user's id on the transfers they sent by an opaque tombstone id of its own (the rows stay: the
    /// receivers' histories point to them), so that nothing links them to the user any more.
    func erase(_ user: UserID, in transaction: any Transaction) throws
}

public enum TransferUserDataStoreKey: ServiceKey { public typealias Service = any TransferUserDataStore }

/// Transfer's part of `moa auth delete`: nothing stands in the way; erasing runs in Auth's transaction.
public enum TransferUserData {
    public static func owner(store: any TransferUserDataStore) -> ErasingUserData {
        ErasingUserData("Transfer") { user, transaction in try store.erase(user, in: transaction) }
    }
}

/// Transfer's `UserDataOwner`, for the App's `UserDataOwnersKey` list.
public enum TransferUserDataKey: ServiceKey { public typealias Service = any UserDataOwner }
