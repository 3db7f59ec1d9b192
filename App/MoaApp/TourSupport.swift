import CommandKit
import DesignSystem
import Foundation
import Networking
import SharedKit

/// The tour's clock: starts at a fixed moment (``Tour/start``, while the bundled sample's events run)
/// and then moves with real time, so the tour's dates are the same on every run and its order real.
struct TourClock: WallClock {
    let start: Date
    private let began = ContinuousClock.now

    init(start: Date) {
        self.start = start
    }

    func now() -> Date {
        let elapsed = ContinuousClock.now - began
        return start.addingTimeInterval(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}

/// The tour's answers to the interactive screens, typed as a person would: each answer is echoed
/// after its prompt (a secret as dots), so the transcript reads like a session at the terminal.
final class TourAnswers: LineInput {
    enum Answer: Sendable {
        case text(String)
        case secret(String)
        /// Worked out when asked (the verification code exists only once the mail is sent), with a note.
        case computed(@Sendable () -> (answer: String, note: String)?)
    }

    private let answers: Locked<[Answer]>
    private let output: any TextOutput
    private let theme: Theme

    init(_ answers: [Answer], output: any TextOutput, theme: Theme) {
        self.answers = Locked(answers)
        self.output = output
        self.theme = theme
    }

    func readLine() -> String? {
        guard let next = answers.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else {
            output.write("\n")
            return nil
        }
        switch next {
        case .text(let text):
            output.write(text + "\n")
            return text
        case .secret(let secret):
            output.write(theme.paint(String(repeating: "•", count: 12), .muted) + "\n")
            return secret
        case .computed(let work):
            guard let (answer, note) = work() else {
                output.write("\n")
                return nil
            }
            output.write(answer + "  " + theme.paint(note, .muted) + "\n")
            return answer
        }
    }
}

/// Whether the user-search API answers at all: one GET of its base URL, given a few seconds.
enum TourProbe {
    enum Result: Sendable, Equatable {
        case reachable
        case unreachable(reason: String)
    }

    static let timeout: TimeInterval = 3

    static func check(_ baseURL: URL) async -> Result {
        let client = URLSessionHTTPClient(baseURL: baseURL, session: URLSessionHTTPClient.makeSession(timeout: timeout))
        return await withTaskGroup(of: Result.self) { group in
            group.addTask {
                do throws(NetworkError) {
                    _ = try await client.send(Endpoint(.get, path: "/", timeout: timeout))
                    return .reachable // any answer, whatever its status: the server is there
                } catch {
                    return .unreachable(reason: error.message.trimmingCharacters(in: CharacterSet(charactersIn: ".")))
                }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(timeout))
                return .unreachable(reason: "no answer within \(Int(timeout)) s")
            }
            let first = await group.next() ?? .unreachable(reason: "no answer")
            group.cancelAll()
            return first
        }
    }
}

/// The fields of `moa account list --json` the tour reads.
struct TourAccount: Decodable {
    let number: String
    let name: String
}

/// The fields of `moa archive events --json` the tour reads.
struct TourEventPage: Decodable {
    let events: [TourEvent]
}

struct TourEvent: Decodable {
    let id: String
    let free: Bool
    let startsOn: Day
    let endsOn: Day?

    var lastDay: Day { endsOn ?? startsOn }
}
