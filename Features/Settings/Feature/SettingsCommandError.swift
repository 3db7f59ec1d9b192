import ArgumentParser
import CommandKit
import DesignSystem
import Foundation
import Money
import Registry
import SettingsDomain
import SettingsInterface
import SharedKit
import Synchronization

/// The command's own refusals.
enum SettingsCommandError: Error, LocalizedUserFacingError, Equatable {
    case confirmationNeeded
    /// Nothing (or an empty line) was read for a secret, from standard input or the prompt.
    case noSecretGiven(SettingKey, from: SecretInput.Source)
    /// `--value-stdin` and a VALUE.
    case valueTwice
    /// `--value-stdin` for a setting that is not a secret.
    case valueStdinNotSecret(SettingKey)

    var message: String { localizedMessage.en }

    var localizedMessage: LocalizedText {
        switch self {
        case .confirmationNeeded:
            LocalizedText(
                en: "Resetting every setting needs a confirmation: run it on a terminal, or add --yes.",
                ko: "모든 설정을 초기화하려면 확인이 필요합니다: 터미널에서 실행하거나 --yes를 붙이세요.")
        case .noSecretGiven(let key, .standardInput):
            LocalizedText(
                en:
                    "No value for \(key.name) was read from standard input: pipe it in as one line, e.g. `moa settings set \(key.name) --value-stdin < key.txt`.",
                ko: "표준 입력에서 \(key.name) 값을 읽지 못했습니다: 한 줄로 넘기세요(예: `moa settings set \(key.name) --value-stdin < key.txt`).")
        case .noSecretGiven(let key, .prompt):
            LocalizedText(en: "No value for \(key.name) was entered.", ko: "\(key.name) 값을 입력하지 않았습니다.")
        case .valueTwice:
            LocalizedText(
                en: "Give the value either as VALUE or with --value-stdin, not both.",
                ko: "값은 VALUE 인자나 --value-stdin 중 하나로만 주세요.")
        case .valueStdinNotSecret(let key):
            LocalizedText(
                en: "--value-stdin is only for secret settings (\(SettingsHelp.secretNames)): give \(key.name) as VALUE.",
                ko: "--value-stdin은 비밀 설정(\(SettingsHelp.secretNames))에만 쓸 수 있습니다: \(key.name) 값은 VALUE 인자로 주세요.")
        }
    }

    var exitStatus: ExitStatus { .usage }
}
