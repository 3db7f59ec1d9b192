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
        return ANSI.signature + "\u{1B}[\(codes)m\(text)\(ANSI.reset)"
    }
}

/// ANSI escape sequences the design system writes.
enum ANSI {
    static let escape: Unicode.Scalar = "\u{1B}"

    /// The mark the theme puts before each of its own SGR sequences: four code points of the
    /// Supplementary Private Use Area-A drawn at random when the process starts (about 64 bits), which
    /// nobody who stores text can know. ``TerminalSafe`` keeps an SGR only right after it (and drops
    /// the mark), so a colour sequence that came from stored text — an account name written into the
    /// database behind Moa's back — is neutralized like any other escape, even when colour is on.
    static let signature = String(
        String.UnicodeScalarView((0..<4).compactMap { _ in Unicode.Scalar(UInt32.random(in: 0xF0000...0xFFFFD)) }))
    static let signatureScalars = Array(signature.unicodeScalars)

    static let reset = signature + "\u{1B}[0m"

    /// Whether the theme's signature starts at `index` of `scalars`.
    static func signature(in scalars: [Unicode.Scalar], at index: Int) -> Bool {
        guard index + signatureScalars.count <= scalars.count, scalars[index] == signatureScalars[0] else { return false }
        return scalars[index..<(index + signatureScalars.count)].elementsEqual(signatureScalars)
    }
}
