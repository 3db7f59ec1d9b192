extension Money {
    /// Parses an amount a person typed, exactly (never rounded, never through a floating-point number).
    ///
    /// Accepted: an optional `+`/`-`, ASCII digits with optional comma groups of three, an optional
    /// `.` followed by at most `currency.minorUnitDigits` digits (more only if they are zeros), surrounding whitespace, and an optional
    /// trailing currency code after a space (any case): "10,000", "12.5", "-5", " 1,234.05 ", "10,000 krw".
    /// - Throws: `.invalidAmount` for malformed text (empty, letters, "1e5", "1,00", ".5", "5.", non-ASCII digits),
    ///   `.tooManyFractionDigits` for too many decimal places, `.currencyMismatch(currency, found)` for another
    ///   currency's code, `.unknownCurrency` for an unknown code, `.overflow` beyond the `Int64` range.
    public static func parse(_ text: String, currency: Currency) throws(MoneyError) -> Money {
        let input = trimmingWhitespace(text)
        var amountText = input
        if let separator = input.lastIndex(where: \.isWhitespace) {
            let code = input[input.index(after: separator)...]
            if code.utf8.count == 3, code.utf8.allSatisfy(isASCIILetter) {
                let found = try Currency(code: String(code))
                guard found == currency else { throw .currencyMismatch(currency, found) }
                amountText = trimmingWhitespace(input[..<separator])
            }
        }
        guard let parts = AmountParts(amountText) else { throw .invalidAmount(input) }
        // Trailing zeros past the currency's digits change nothing ("5,000.00" KRW is 5,000); any other
        // extra digit would need rounding, which parsing never does.
        var fraction = parts.fraction
        while fraction.count > currency.minorUnitDigits, fraction.last == asciiZero { fraction.removeLast() }
        guard fraction.count <= currency.minorUnitDigits else {
            throw .tooManyFractionDigits(amountText, allowed: currency.minorUnitDigits)
        }
        let padding = [UInt8](repeating: asciiZero, count: currency.minorUnitDigits - fraction.count)
        var magnitude: UInt64 = 0
        for digit in parts.integer + fraction + padding {
            let (shifted, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.addingReportingOverflow(UInt64(digit - asciiZero))
            guard !overflow1, !overflow2 else { throw .overflow }
            magnitude = next
        }
        if parts.isNegative {
            guard magnitude <= Int64.min.magnitude else { throw .overflow }
            return Money(minorUnits: Int64(truncatingIfNeeded: 0 &- magnitude), currency: currency)
        }
        guard let value = Int64(exactly: magnitude) else { throw .overflow }
        return Money(minorUnits: value, currency: currency)
    }
}

private let asciiZero = UInt8(ascii: "0")

private func isASCIIDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
}

private func isASCIILetter(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
}

/// The sign and ASCII digits of a well-formed amount, or `nil` when the text is malformed.
private struct AmountParts {
    var isNegative = false
    var integer: [UInt8] = []
    var fraction: [UInt8] = []

    init?(_ text: String) {
        var bytes = text.utf8[...]
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            isNegative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        // Integer part: digits, optionally in comma groups "1,234,567".
        var groupLength = 0
        var sawComma = false
        while let byte = bytes.first, byte != UInt8(ascii: ".") {
            if isASCIIDigit(byte) {
                integer.append(byte)
                groupLength += 1
            } else if byte == UInt8(ascii: ",") {
                let groupIsValid = sawComma ? groupLength == 3 : (1...3).contains(groupLength)
                guard groupIsValid else { return nil }
                sawComma = true
                groupLength = 0
            } else {
                return nil
            }
            bytes = bytes.dropFirst()
        }
        guard !integer.isEmpty, !sawComma || groupLength == 3 else { return nil }
        // Fraction part: "." and at least one digit.
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard !bytes.isEmpty, bytes.allSatisfy(isASCIIDigit) else { return nil }
            fraction = Array(bytes)
        }
    }
}
