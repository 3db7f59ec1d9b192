/// Text made safe for a terminal: no control character that someone else stored (an account name, a
/// memo, an imported title) can move the cursor, set the window title, ring the bell, reorder the line
/// or hide what follows. Every character that could is replaced by a visible stand-in:
///
/// - C0 controls (U+0000–U+001F) by their Control Pictures (`ESC` → `␛`, `BEL` → `␇`), but for the line
///   feed and tab, which print as themselves, and a carriage return right before a line feed (CRLF);
/// - DEL by `␡`; C1 controls (U+0080–U+009F, the 8-bit `CSI` among them) and the bidirectional
///   overrides, embeddings, isolates and marks (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069) by `�`.
///
/// The design system's own styling survives when asked to (``neutralize(_:keepingStyle:)``): an SGR
/// sequence (`ESC [ digits;… m`, colour and weight only) that the theme wrote — it carries the theme's
/// per-process signature, which is removed — is kept. An SGR from anywhere else (stored text) is
/// neutralized like every other escape, colour on or off.
public enum TerminalSafe {
    /// `text` with every control character neutralized. `keepingStyle`: keep SGR sequences (the
    /// theme's colours, when colour is on). `keepingLeadingReturn`: a carriage return that starts the
    /// text is kept (a progress line redrawing itself).
    public static func neutralize(_ text: String, keepingStyle: Bool = false, keepingLeadingReturn: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: needsCare) else { return text }
        var result = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if ANSI.signature(in: scalars, at: index) {
                let sequence = index + ANSI.signatureScalars.count
                if keepingStyle, let end = sgrEnd(in: scalars, from: sequence) {
                    result.append(contentsOf: scalars[sequence...end])
                    index = end + 1
                } else {
                    index = sequence // the mark alone never shows; what follows it is neutralized
                }
                continue
            }
            if scalar == "\r", (index == 0 && keepingLeadingReturn) || (index + 1 < scalars.count && scalars[index + 1] == "\n") {
                result.append(scalar)
            } else {
                result.append(contentsOf: standIn(for: scalar).unicodeScalars)
            }
            index += 1
        }
        return String(result)
    }

    /// Whether `scalar` is replaced (or, for ESC and CR, looked at) by ``neutralize(_:keepingStyle:keepingLeadingReturn:)``.
    static func needsCare(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == ANSI.signatureScalars[0] { return true }
        return switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F, 0x80...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// The visible stand-in for `scalar` (itself when it is harmless).
    static func standIn(for scalar: Unicode.Scalar) -> String {
        guard needsCare(scalar), scalar != ANSI.signatureScalars[0] else { return String(scalar) }
        switch scalar.value {
        case 0x00...0x1F: return String(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
        case 0x7F: return "\u{2421}"
        default: return "\u{FFFD}"
        }
    }

    /// The index of the final `m` when `scalars[start...]` is an SGR sequence: ESC, `[`, then only digits
    /// and `;` (at most 32 of them), then `m`.
    static func sgrEnd(in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        guard start + 2 < scalars.count, scalars[start] == "\u{1B}", scalars[start + 1] == "[" else { return nil }
        var index = start + 2
        while index < scalars.count, index - start <= 34 {
            let scalar = scalars[index]
            if scalar == "m" { return index }
            guard scalar == ";" || ("0"..."9").contains(scalar) else { return nil }
            index += 1
        }
        return nil
    }
}

/// The one way text reaches a terminal: every write is neutralized by ``TerminalSafe`` before it goes
/// to `base`. `keepsStyle`: the theme's colours pass (colour is on for this stream); with colour off
/// no escape sequence at all gets through.
public struct TerminalSafeOutput: TextOutput {
    public let base: any TextOutput
    public let keepsStyle: Bool

    public init(_ base: any TextOutput, keepsStyle: Bool) {
        // Wrapping twice would only repeat the work: wrap the innermost output.
        self.base = (base as? TerminalSafeOutput)?.base ?? base
        self.keepsStyle = keepsStyle
    }

    public func write(_ s: String) {
        base.write(TerminalSafe.neutralize(s, keepingStyle: keepsStyle, keepingLeadingReturn: true))
    }
}
