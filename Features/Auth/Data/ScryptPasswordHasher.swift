import AuthDomain
import Crypto
import CryptoExtras
import Foundation
import SharedKit

/// The cost of one scrypt derivation: N = 2^`logN`, r = `blockSize`, p = `parallelism`.
public struct ScryptParameters: Sendable, Equatable, CustomStringConvertible {
    public var logN: Int
    public var blockSize: Int
    public var parallelism: Int
    public var saltByteCount: Int
    public var keyByteCount: Int

    /// OWASP Password Storage Cheat Sheet: N = 2^17, r = 8, p = 1 (128 MiB), 16-byte salt, 32-byte key.
    public static let owasp = ScryptParameters(logN: 17, blockSize: 8, parallelism: 1)

    /// N = 2^10 (1 MiB): 128 times cheaper than ``owasp``. For tests only: the stored hash records it,
    /// so a hasher at ``owasp`` still verifies such a hash and asks for it to be re-hashed.
    public static let testsOnly = ScryptParameters(logN: 10, blockSize: 8, parallelism: 1)

    /// The cost a composition root hashes at: ``owasp``. A debug build (what `swift test` runs end to
    /// end, in processes of its own) honours `MOA_TESTING_CHEAP_SCRYPT=1` in `environment`: ``testsOnly``.
    /// Each stored hash records its cost, so such a hash still verifies at OWASP's, and the next right
    /// login re-hashes it. A release build ignores the variable.
    public static func chosen(by environment: [String: String]) -> ScryptParameters {
        #if DEBUG
            if environment["MOA_TESTING_CHEAP_SCRYPT"] == "1" { return .testsOnly }
        #endif
        return .owasp
    }

    public init(logN: Int, blockSize: Int, parallelism: Int, saltByteCount: Int = 16, keyByteCount: Int = 32) {
        self.logN = logN
        self.blockSize = blockSize
        self.parallelism = parallelism
        self.saltByteCount = saltByteCount
        self.keyByteCount = keyByteCount
    }

    /// `ln=17,r=8,p=1`, as in the stored format.
    public var description: String { "ln=\(logN),r=\(blockSize),p=\(parallelism)" }

    /// Whether any cost is below `other`'s.
    func isWeaker(than other: ScryptParameters) -> Bool {
        logN < other.logN || blockSize < other.blockSize || parallelism < other.parallelism
            || saltByteCount < other.saltByteCount || keyByteCount < other.keyByteCount
    }

    /// Bounds for parameters read back from storage, so a damaged row cannot ask for gigabytes.
    var isSane: Bool {
        (1...24).contains(logN) && (1...64).contains(blockSize) && (1...16).contains(parallelism)
            && 128 * (1 << logN) * blockSize * parallelism <= 1 << 31
            && (8...64).contains(saltByteCount) && (16...64).contains(keyByteCount)
    }
}

/// A scrypt derivation that failed inside the crypto library.
public struct PasswordHashingError: UserFacingError, Equatable {
    public let parameters: String
    public let reason: String

    public var message: String { "Hashing the password with scrypt (\(parameters)) failed: \(reason)." }
    public var exitStatus: ExitStatus { .software }
}

/// ``PasswordHasher`` with scrypt from swift-crypto's `CryptoExtras`.
///
/// Stored format: `$scrypt$ln=17,r=8,p=1$<salt, base64>$<key, base64>`.
public struct ScryptPasswordHasher: PasswordHasher {
    public let parameters: ScryptParameters

    /// The app's hasher: OWASP parameters.
    public init() {
        self.init(parameters: .owasp)
    }

    /// Tests may pass cheaper parameters (``ScryptParameters/testsOnly``); a release build never does.
    public init(parameters: ScryptParameters) {
        self.parameters = parameters
    }

    public func hash(_ password: String) throws -> String {
        let salt = RandomBytes.make(parameters.saltByteCount)
        let key = try Self.derive(password, salt: salt, parameters: parameters)
        return "$scrypt$\(parameters)$\(Data(salt).base64EncodedString())$\(Data(key).base64EncodedString())"
    }

    public func verify(_ password: String, against stored: String) -> Bool {
        guard let parsed = Self.parse(stored),
            let key = try? Self.derive(password, salt: parsed.salt, parameters: parsed.parameters)
        else { return false }
        return Self.constantTimeEquals(key, parsed.key)
    }

    public func needsRehash(_ stored: String) -> Bool {
        guard let parsed = Self.parse(stored) else { return true }
        return parsed.parameters.isWeaker(than: parameters)
    }

    public func verifyAgainstNothing(_ password: String) {
        _ = try? Self.derive(password, salt: Self.dummySalt, parameters: parameters)
    }

    // MARK: Helpers

    private static let dummySalt = [UInt8](repeating: 0x5A, count: 16)

    static func derive(_ password: String, salt: [UInt8], parameters: ScryptParameters) throws(PasswordHashingError) -> [UInt8] {
        do {
            let key = try KDF.Scrypt.deriveKey(
                from: Array(password.utf8), salt: salt, outputByteCount: parameters.keyByteCount,
                rounds: 1 << parameters.logN, blockSize: parameters.blockSize,
                parallelism: parameters.parallelism)
            return key.withUnsafeBytes { Array($0) }
        } catch {
            throw PasswordHashingError(parameters: parameters.description, reason: String(describing: error))
        }
    }

    /// Parses the stored format; `nil` when anything is off.
    static func parse(_ stored: String) -> (parameters: ScryptParameters, salt: [UInt8], key: [UInt8])? {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "scrypt" else { return nil }
        let fields = parts[2].split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count == 3 else { return nil }
        var values: [String: Int] = [:]
        for field in fields {
            let pair = field.split(separator: "=", omittingEmptySubsequences: false)
            guard pair.count == 2, let value = Int(pair[1]), values.updateValue(value, forKey: String(pair[0])) == nil else { return nil }
        }
        guard let logN = values["ln"], let blockSize = values["r"], let parallelism = values["p"],
            let salt = Data(base64Encoded: String(parts[3])), let key = Data(base64Encoded: String(parts[4]))
        else { return nil }
        let parameters = ScryptParameters(
            logN: logN, blockSize: blockSize, parallelism: parallelism,
            saltByteCount: salt.count, keyByteCount: key.count)
        guard parameters.isSane else { return nil }
        return (parameters, Array(salt), Array(key))
    }

    static func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
