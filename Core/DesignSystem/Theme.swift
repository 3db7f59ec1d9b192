/// Turns text plus a meaning (``ColorToken``) or a ``TextStyle`` into what is written to the
/// terminal: with ANSI SGR codes only when colour is on, the text unchanged otherwise.
public struct Theme: Sendable, Equatable {
    /// Whether ANSI escape sequences are emitted.
    public var isColorEnabled: Bool
    /// Box, rule, bar and ellipsis characters.
    public var glyphs: Glyphs

    public init(isColorEnabled: Bool, glyphs: Glyphs = .unicode) {
        self.isColorEnabled = isColorEnabled
        self.glyphs = glyphs
    }

    /// No colour, Unicode glyphs: pipes, files, `--no-color`, and most tests.
    public static let plain = Theme(isColorEnabled: false)
    /// Colour on, Unicode glyphs.
    public static let colored = Theme(isColorEnabled: true)

    /// The theme for a stream, resolved by ``ColorMode/isColorEnabled(noColorFlag:terminal:)``.
    public static func resolve(
        mode: ColorMode, noColorFlag: Bool = false, terminal: TerminalEnvironment, glyphs: Glyphs = .unicode
    ) -> Theme {
        Theme(isColorEnabled: mode.isColorEnabled(noColorFlag: noColorFlag, terminal: terminal), glyphs: glyphs)
    }

    /// `text` in the look of `token`, plus any extra `style`.
    public func paint(_ text: String, _ token: ColorToken, _ style: TextStyle = []) -> String {
        sgr(text, token.sgrParameters + style.sgrParameters.filter { !token.sgrParameters.contains($0) })
    }

    /// `text` in `style` (bold, dim, underline).
    public func styled(_ text: String, _ style: TextStyle) -> String {
        sgr(text, style.sgrParameters)
    }

    private func sgr(_ text: String, _ parameters: [Int]) -> String {
        guard isColorEnabled, !parameters.isEmpty, !text.isEmpty else { return text }
        let codes = parameters.map(String.init).joined(separator: ";")
        return "\u{1B}[\(codes)m\(text)\(ANSI.reset)"
    }
}

/// ANSI escape sequences the design system writes.
enum ANSI {
    static let escape: Unicode.Scalar = "\u{1B}"
    static let reset = "\u{1B}[0m"
}
