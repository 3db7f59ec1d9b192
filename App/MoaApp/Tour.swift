import CommandKit
import DesignSystem
import Foundation
import Registry
import SettingsInterface
import SharedKit
import Storage

/// `moa tour`: a scripted walk through the composed app, on a fresh temporary `$MOA_HOME`.
///
/// Every step runs a real `moa` command line in this process, through the same composition and the
/// same command groups as `moa` itself (``TourWalk/moa(_:expect:)``): the tour holds no business rule,
/// only the script. Sign-up goes through the interactive home's "Log in or sign up" entry, answered by
/// ``TourAnswers`` (the passphrase is typed like a person would, the code is read from the outbox).
enum Tour {
    /// The demo user.
    static let email = "tour@moa.example"
    /// The demo user's passphrase (a throwaway account in a throwaway home).
    static let passphrase = "a minute with every feature of moa"
    /// When the tour's clock starts: 2026-11-23 12:00 UTC, while the bundled sample's events run.
    static let start = Date(timeIntervalSince1970: 1_795_435_200)
    static let startDay = "2026-11-23"
    /// How many steps the tour has (each prints "n/steps Title").
    static let steps = 11

    static func run(keep: Bool, environment: [String: String], context: CommandContext) async throws {
        let started = ContinuousClock.now
        let home = MoaHome(
            root: FileManager.default.temporaryDirectory
                .appendingPathComponent("moa-tour-\(UUID().uuidString.prefix(8).lowercased())"))
        let variables = settingsEnvironment(environment)
        do {
            let walk = try TourWalk.open(home: home, variables: variables, context: context)
            walk.introduction()
            try await walk.all()
            await walk.conclusion(elapsed: ContinuousClock.now - started)
        } catch {
            leave(home, keep: keep, context: context, failed: true)
            throw error
        }
        leave(home, keep: keep, context: context, failed: false)
    }

    /// The environment Settings sees during the tour: none of the person's `MOA_…` settings (the
    /// script must not depend on them) except where user search goes.
    static func settingsEnvironment(_ environment: [String: String]) -> [String: String] {
        let kept: Set = ["MOA_SEARCH_API_BASE_URL", "MOA_SEARCH_API_TOKEN"]
        return environment.filter { !$0.key.hasPrefix("MOA_") || kept.contains($0.key) }
    }

    /// Removes the tour's home, or says where it is kept.
    static func leave(_ home: MoaHome, keep: Bool, context: CommandContext, failed: Bool) {
        let theme = context.theme
        if keep {
            context.print(
                theme.paint("The tour's home is kept at \(home.root.path)", .accent) + (failed ? "." : ": \(email) is logged in there."))
            context.print(theme.paint("  moa --home \(home.root.path) account list     (or MOA_HOME=\(home.root.path) moa)", .muted))
            context.print(theme.paint("  Log in again there with the passphrase “\(passphrase)”.", .muted))
        } else {
            try? FileManager.default.removeItem(at: home.root)
            if !failed { context.print(theme.paint("The tour's home was removed (keep it with `moa tour --keep`).", .muted)) }
        }
    }
}

/// Why the tour stopped: a step did not go as scripted (a bug, or a broken installation).
enum TourError: UserFacingError {
    case stepFailed(step: String, command: String, status: ExitStatus)
    case notRefused(step: String, command: String)
    case unexpected(step: String, what: String)

    var message: String {
        switch self {
        case .stepFailed(let step, let command, let status):
            "The tour stopped at step \(step): `\(command)` failed with exit status \(status.rawValue) (shown above)."
        case .notRefused(let step, let command):
            "The tour stopped at step \(step): `\(command)` should have been refused, and was not."
        case .unexpected(let step, let what):
            "The tour stopped at step \(step): \(what)."
        }
    }

    var hint: String? { "Run `moa doctor` to check the installation; `moa tour --keep` keeps the tour's home to look into." }
    var exitStatus: ExitStatus { .software }
}
