import ArgumentParser
import CommandKit
import DesignSystem
import Dispatch
import Foundation
import SearchDomain
import SharedKit

// `moa search login | logout | status`: the GitHub login (OAuth's device flow), whose token the
// user search sends when `search.api-token` is unset.

extension SearchCommand {
    struct Login: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "login",
            abstract: "Log in with GitHub (OAuth device flow): enter a code in a browser; the token goes to the credential store.",
            discussion: """
                Needs the client id of an OAuth app with the device flow enabled (none is built in): register one at \
                GitHub → Settings → Developer settings → OAuth Apps, tick “Enable Device Flow”, then \
                `moa settings set search.oauth-client-id CLIENT_ID`. The OAuth host is search.oauth-base-url \
                (default https://github.com), the API search.api-base-url (GitHub Enterprise has both). \
                The token is never printed; it is kept in the system's credential store when there is one (else an \
                owner-only file of the home). Exits 0 logged in; 77 refused; 75 the code expired; 78 no or unknown \
                client id; 130 stopped with Ctrl-C (nothing saved).
                """)
        @OptionGroup var global: GlobalOptions

        func run(in environment: SearchEnvironment, context: CommandContext) async throws {
            let login = environment.login
            let authorization = try await login.start()
            // The person needs the code even with --json: the instructions go to standard error then.
            let instructions = SearchLoginScreen.instructions(authorization, theme: context.json ? .plain : context.theme)
            if context.json { context.err.write(instructions) } else { context.out.write(instructions) }
            let identity = try await SearchLoginScreen.untilInterrupted {
                try await login.finish(authorization) { progress in
                    if case .slowedDown(let interval) = progress {
                        context.err.write("The server asked moa to poll less often: every \(interval.components.seconds) seconds now.\n")
                    }
                }
            }
            let status = try await login.status()
            if context.json {
                try context.printJSON(SearchLoginJSON.LoggedIn(identity: identity, status: status))
            } else {
                context.print(SearchLoginScreen.loggedIn(identity, status: status, theme: context.theme))
            }
        }
    }

    struct Logout: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "logout", abstract: "Forget the GitHub login's token (search.api-token, if set, stays).")
        @OptionGroup var global: GlobalOptions

        func run(in environment: SearchEnvironment, context: CommandContext) async throws {
            let forgotten = try environment.login.logout()
            if context.json {
                try context.printJSON(SearchLoginJSON.LoggedOut(forgotten: forgotten))
            } else {
                context.print(forgotten ? "Logged out of GitHub: the token is forgotten." : "No GitHub login to forget.")
            }
        }
    }

    struct Status: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "Who the search is logged in as, with which scopes, and where the token is kept.")
        @OptionGroup var global: GlobalOptions

        func run(in environment: SearchEnvironment, context: CommandContext) async throws {
            let status = try await environment.login.status()
            if context.json {
                try context.printJSON(SearchLoginJSON.Status(status))
            } else {
                context.print(SearchLoginScreen.status(status, theme: context.theme))
            }
        }
    }
}

/// The `--json` shapes of the login commands.
enum SearchLoginJSON {
    struct Identity: Encodable {
        let login: String, name: String?, scopes: [String]
        init(_ identity: GitHubIdentity) {
            (login, name, scopes) = (identity.login, identity.name, identity.scopes)
        }
    }

    struct LoggedIn: Encodable {
        let loggedIn = true
        let user: Identity
        /// `system` (the Keychain, the Secret Service) or `files` (an owner-only file of the home).
        let store: String
        let storeLocation: String
        init(identity: GitHubIdentity, status: LoginStatus) {
            user = Identity(identity)
            store = status.systemStore ? "system" : "files"
            storeLocation = status.storeLocation
        }
    }

    struct LoggedOut: Encodable {
        let forgotten: Bool
    }

    struct Status: Encodable {
        /// `login`, `search.api-token` or `none`.
        let token: String
        let user: Identity?
        let problem: String?
        let store: String
        let storeLocation: String
        let apiBaseUrl: String
        let oauthBaseUrl: String
        let clientIdSet: Bool
        init(_ status: LoginStatus) {
            token = status.source.rawValue
            user = status.identity.map(Identity.init)
            problem = status.problem
            store = status.systemStore ? "system" : "files"
            storeLocation = status.storeLocation
            (apiBaseUrl, oauthBaseUrl, clientIdSet) = (
                status.apiBaseURL.absoluteString, status.oauthBaseURL.absoluteString, status.clientIDSet
            )
        }
    }
}

enum SearchLoginScreen {
    /// What to do in the browser, with the code on a line of its own (easy to copy).
    static func instructions(_ authorization: DeviceAuthorization, theme: Theme) -> String {
        let minutes = GitHubLogin.minutes(authorization.expiresIn)
        return """
            To log in with GitHub, open this address in a browser:

                \(SearchScreen.clean(authorization.verificationURL.absoluteString))

            and enter the code:

                \(theme.paint(authorization.userCode, .heading))

            Waiting for you to enter it (the code is valid for \(minutes) minute\(minutes == 1 ? "" : "s"); Ctrl-C stops)…

            """
    }

    /// `octocat (The Octocat)`, or the login alone when there is no name; terminal-safe.
    static func who(_ identity: GitHubIdentity) -> String {
        identity.name.map { "\(SearchScreen.clean(identity.login)) (\(SearchScreen.clean($0)))" } ?? SearchScreen.clean(identity.login)
    }

    static func loggedIn(_ identity: GitHubIdentity, status: LoginStatus, theme: Theme) -> String {
        var text =
            theme.paint("Logged in to GitHub as \(who(identity)).", .success)
            + "\nThe token is kept in \(SearchScreen.clean(status.storeLocation))."
        if status.source == .setting {
            text +=
                "\nNote: search.api-token is set, and it is what the search sends; `moa settings reset search.api-token` to use this login."
        }
        return text
    }

    static func status(_ status: LoginStatus, theme: Theme) -> String {
        let token: String =
            switch status.source {
            case .login: "the GitHub login's"
            case .setting: "search.api-token"
            case .none: "none (anonymous requests; `moa search login` to log in)"
            }
        var rows: [KeyValueRows.Row] = [.init("Token", token)]
        if let identity = status.identity {
            rows.append(.init("User", who(identity)))
            rows.append(
                .init(
                    "Scopes",
                    identity.scopes.isEmpty ? "none (public data only)" : SearchScreen.clean(identity.scopes.joined(separator: ", "))))
        }
        if let problem = status.problem { rows.append(.init("Problem", SearchScreen.clean(problem))) }
        rows += [
            .init("Kept in", SearchScreen.clean(status.storeLocation)),
            .init("API", SearchScreen.clean(status.apiBaseURL.absoluteString)),
            .init("OAuth host", SearchScreen.clean(status.oauthBaseURL.absoluteString)),
            .init("Client id", status.clientIDSet ? "set (search.oauth-client-id)" : "not set (search.oauth-client-id)"),
        ]
        return Card(title: "GitHub login", lines: KeyValueRows(rows).render(theme: theme).components(separatedBy: "\n")).render(
            theme: theme)
    }

    /// Runs `body`, turning Ctrl-C (SIGINT) into its cancellation for as long as it runs: the login
    /// then stops with ``LoginError/interrupted`` (130) and nothing saved, instead of the process dying.
    static func untilInterrupted<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await body() }
        // Ctrl-C is turned into cancellation while the login waits; whatever SIGINT did before is
        // restored afterwards (ignored stays ignored: a login started under nohup keeps running).
        let previous = signal(SIGINT, SIG_IGN)
        // C function pointers are not Equatable: compare their addresses.
        let wasIgnored = withUnsafeBytes(of: previous) { $0.load(as: Int.self) } == withUnsafeBytes(of: SIG_IGN) { $0.load(as: Int.self) }
        // (A Dispatch source released before it was ever resumed traps: make one only to use it.)
        let source = wasIgnored ? nil : DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source?.setEventHandler { task.cancel() }
        source?.resume()
        defer {
            source?.cancel()
            signal(SIGINT, previous)
        }
        do {
            return try await task.value
        } catch is CancellationError {
            throw LoginError.interrupted
        }
    }
}
