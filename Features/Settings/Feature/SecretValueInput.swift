import ArgumentParser
import CommandKit
import DesignSystem
import Foundation
import Money
import Registry
import SettingsDomain
import SettingsInterface
import SharedKit

/// Reads a secret setting's value without it ever being on the command line: typed without echo at
/// a prompt on the terminal, or the first line of standard input (`--value-stdin`).
public struct SecretValueInput: Sendable {
    private let line: @Sendable (String, SecretInput.Source, CommandContext) throws -> String?

    /// - Parameter line: reads one line from `source` after showing the prompt (if it is one);
    ///   `nil` when nothing was read.
    public init(_ line: @escaping @Sendable (_ prompt: String, _ source: SecretInput.Source, _ context: CommandContext) throws -> String?) {
        self.line = line
    }

    /// The value of `key`; an empty line or nothing at all is ``SettingsCommandError/noSecretGiven(_:from:)``.
    func read(_ key: SettingKey, from source: SecretInput.Source, context: CommandContext) throws -> String {
        guard let value = try line("\(key.name): ", source, context), !value.isEmpty else {
            throw SettingsCommandError.noSecretGiven(key, from: source)
        }
        return value
    }

    /// The process's terminal and standard input, through CommandKit's ``SecretInput`` (as `moa auth
    /// login --password-stdin` reads). Its refusals name passwords, so they become Settings' own.
    public static let terminal = SecretValueInput { prompt, source, context in
        do {
            return try SecretInput.read(prompt, from: source, context: context)
        } catch {
            return nil
        }
    }

    /// Answers the given lines in turn, then nothing (tests, scripts); the sources asked are recorded
    /// by `asked`, when given.
    public static func lines(_ lines: [String], asked: (@Sendable (SecretInput.Source) -> Void)? = nil) -> SecretValueInput {
        let remaining = Locked(lines)
        return SecretValueInput { _, source, _ in
            asked?(source)
            return remaining.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        }
    }
}
