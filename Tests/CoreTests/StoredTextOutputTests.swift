import CommandKit
import DesignSystem
import Foundation
import SharedKit
import Testing

/// Stored or network text never reaches a terminal raw (issue 24, item 11), on the two paths that let
/// it through: the interactive mode under `moa --json` (its screens wrote to the unfiltered stream)
/// and `--json` output (JSONEncoder escapes only C0, so a C1 CSI, DEL and bidi marks went out raw).
@Suite("CommandKit · stored text on every output path")
struct StoredTextOutputTests {
    static let hostile = "a\u{1B}[31mRED\u{07}\u{9B}2J\u{7F}\u{202E}evil\u{2028}x"

    static func isRaw(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x08, 0x0B...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    @Test func jsonOutputEscapesEveryInvisibleCharacterAndKeepsTheValue() throws {
        struct Event: Codable, Equatable { let title: String }
        let json = try JSONOutput.encode(Event(title: Self.hostile))
        #expect(!json.unicodeScalars.contains(where: Self.isRaw), "\(json.debugDescription)")
        #expect(json.contains(#"\u009b2J"#) && json.contains(#"\u202e"#) && json.contains(#"\u2028"#))
        #expect(try JSONDecoder().decode(Event.self, from: Data(json.utf8)) == Event(title: Self.hostile))
    }

    @Test(arguments: [true, false])
    func everyScreenWritesThroughTheFilterWithOrWithoutJSON(json: Bool) {
        let out = CapturingOutput()
        let context = CommandContext(json: json, out: out, err: CapturingOutput())
        let screen = Screen(context: context, input: ScriptedLineInput(["1"]))
        screen.show("Card: \(Self.hostile)")
        screen.say("Notice: \(Self.hostile)")
        _ = screen.ask("Archive \(Self.hostile)?")
        screen.showError(AlreadyArchived())
        #expect(!out.text.unicodeScalars.contains(where: Self.isRaw), "\(out.text.debugDescription)")
        #expect(out.text.contains("␛[31mRED␇"))
    }
}

/// An error whose sentence quotes stored text.
private struct AlreadyArchived: UserFacingError {
    var message: String { "You already archived “\(StoredTextOutputTests.hostile)”." }
    var exitStatus: SharedKit.ExitStatus { .refused }
}
