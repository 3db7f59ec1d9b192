extension Money {
    /// The amount with its currency code: "10,000 KRW", "12.50 USD", "-1,234.05 USD", "0 JPY".
    public func formatted() -> String {
        formattedAmount() + " " + currency.code
    }

    /// The amount alone, with comma grouping and exactly the currency's decimal places: "10,000", "12.50", "-1,234.05".
    public func formattedAmount() -> String {
        let digits = currency.minorUnitDigits
        var divisor: UInt64 = 1
        for _ in 0..<digits { divisor *= 10 }
        let magnitude = minorUnits.magnitude
        var text = minorUnits < 0 ? "-" : ""
        text += grouped(String(magnitude / divisor))
        if digits > 0 {
            let fraction = String(magnitude % divisor)
            text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        return text
    }

    private func grouped(_ digits: String) -> String {
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}

extension Money {
    /// `value` with comma groups of three: "100,000,000,000", "-1,234".
    public static func grouped(_ value: Int64) -> String {
        Money(minorUnits: value, currency: .krw).formattedAmount()
    }
}
