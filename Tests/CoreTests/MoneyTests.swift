import Foundation
import Money
import Testing

// MARK: - Currency

@Suite("Currency")
struct CurrencyTests {
    @Test(arguments: [
        ("KRW", 0), ("USD", 2), ("EUR", 2), ("JPY", 0), ("GBP", 2), ("CNY", 2), ("CHF", 2),
        ("CAD", 2), ("AUD", 2), ("HKD", 2), ("SGD", 2), ("TWD", 2), ("BHD", 3), ("KWD", 3),
    ])
    func knownCurrencies(code: String, digits: Int) throws {
        let currency = try Currency(code: code)
        #expect(currency.code == code)
        #expect(currency.minorUnitDigits == digits)
        #expect(Currency.supported.contains(currency))
    }

    @Test func codesAreCaseInsensitiveAndTrimmed() throws {
        #expect(try Currency(code: " krw ") == .krw)
        #expect(try Currency(code: "uSd").code == "USD")
        #expect(try Currency(code: "\tEur\n") == .eur)
    }

    @Test func staticCurrencies() {
        #expect(Currency.krw.code == "KRW" && Currency.krw.minorUnitDigits == 0)
        #expect(Currency.usd.code == "USD" && Currency.usd.minorUnitDigits == 2)
        #expect(Currency.eur.code == "EUR" && Currency.eur.minorUnitDigits == 2)
        #expect(Currency.jpy.code == "JPY" && Currency.jpy.minorUnitDigits == 0)
        #expect(Currency.krw.description == "KRW")
    }

    @Test(arguments: ["XYZ", "", "US", "USDX", "dollar", "원"])
    func unknownCodes(code: String) {
        #expect(throws: MoneyError.unknownCurrency(code)) { try Currency(code: code) }
    }

    @Test func unknownCodeIsReportedTrimmed() {
        #expect(throws: MoneyError.unknownCurrency("abc")) { try Currency(code: "  abc ") }
    }

    @Test func codableAsPlainString() throws {
        let data = try JSONEncoder().encode([Currency.krw, Currency.usd])
        #expect(String(decoding: data, as: UTF8.self) == #"["KRW","USD"]"#)
        let decoded = try JSONDecoder().decode([Currency].self, from: Data(#"["JPY","eur"]"#.utf8))
        #expect(decoded == [.jpy, .eur])
    }

    @Test func decodingUnknownCodeFails() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([Currency].self, from: Data(#"["XYZ"]"#.utf8))
        }
    }
}

// MARK: - Parsing

@Suite("Money.parse")
struct MoneyParsingTests {
    static let bhd = (try? Currency(code: "BHD")) ?? .usd

    @Test(arguments: [
        ("10000", Currency.krw, Int64(10_000)),
        ("10,000", .krw, 10_000),
        ("1,234,567", .krw, 1_234_567),
        ("0", .krw, 0),
        ("-0", .krw, 0),
        ("007", .krw, 7),
        ("-5", .krw, -5),
        ("+5", .krw, 5),
        ("12.50", .usd, 1_250),
        ("12.5", .usd, 1_250),
        ("12", .usd, 1_200),
        ("0.05", .usd, 5),
        ("-0.05", .usd, -5),
        (" 1,234.05 ", .usd, 123_405),
        ("-1,234.05", .usd, -123_405),
        ("1.234", bhd, 1_234),
        ("1.2", bhd, 1_200),
        ("10,000 KRW", .krw, 10_000),
        ("10,000 krw", .krw, 10_000),
        ("  12.50   usd ", .usd, 1_250),
        ("-3 JPY", .jpy, -3),
        ("9223372036854775807", .jpy, Int64.max),
        ("-9223372036854775808", .jpy, Int64.min),
        ("9,223,372,036,854,775,807", .krw, Int64.max),
        ("92233720368547758.07", .usd, Int64.max),
        ("-92233720368547758.08", .usd, Int64.min),
        ("0000000000000000000000001", .krw, 1),
    ])
    func validInput(text: String, currency: Currency, minorUnits: Int64) throws {
        #expect(try Money.parse(text, currency: currency) == Money(minorUnits: minorUnits, currency: currency))
    }

    @Test(arguments: [
        "", "   ", "abc", "12abc", "ten dollars", "1e5", "1E5", "0x10", "١٢", "１２", "12\u{301}",
        "1,00", "1,,000", ",100", "100,", "1,0000", "1234,567", "1,234,56", "12,34.5",
        ".5", "5.", ".", "-", "+", "+-5", "--5", "- 5", "5-", "1.2.3", "1.2,3", "1 000",
        "12.5$", "$12", "−5", "Infinity", "NaN", "KRW", "10 000 USD", "10,000 US D",
    ])
    func malformedInputIsInvalidAmount(text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        #expect(throws: MoneyError.invalidAmount(trimmed)) { try Money.parse(text, currency: .usd) }
    }

    @Test func trailingZerosPastTheCurrencysDigitsAreExactAndAccepted() throws {
        #expect(try Money.parse("5,000.00", currency: .krw) == Money(minorUnits: 5_000, currency: .krw))
        #expect(try Money.parse("12.500 USD", currency: .usd) == Money(minorUnits: 1_250, currency: .usd))
    }

    @Test func invalidAmountKeepsTheWholeInputIncludingCode() {
        #expect(throws: MoneyError.invalidAmount("1,00 KRW")) { try Money.parse(" 1,00 KRW ", currency: .krw) }
    }

    @Test(arguments: [
        ("12.505", Currency.usd, "12.505", 2),
        ("12.501", .usd, "12.501", 2),
        ("0.001", .usd, "0.001", 2),
        ("1.5", .krw, "1.5", 0),
        ("1.01", .krw, "1.01", 0),
        ("100.5 JPY", .jpy, "100.5", 0),
        ("1.2345", bhd, "1.2345", 3),
        ("99999999999999999999999.999", .usd, "99999999999999999999999.999", 2),
    ])
    func tooManyFractionDigitsAreNeverRounded(text: String, currency: Currency, reported: String, allowed: Int) {
        #expect(throws: MoneyError.tooManyFractionDigits(reported, allowed: allowed)) {
            try Money.parse(text, currency: currency)
        }
    }

    @Test func otherCurrencyCodeIsAMismatch() {
        #expect(throws: MoneyError.currencyMismatch(.krw, .usd)) { try Money.parse("10,000 USD", currency: .krw) }
        #expect(throws: MoneyError.currencyMismatch(.usd, .eur)) { try Money.parse("12.50 eur", currency: .usd) }
    }

    @Test func unknownTrailingCodeIsReported() {
        #expect(throws: MoneyError.unknownCurrency("XYZ")) { try Money.parse("10 XYZ", currency: .krw) }
    }

    @Test(arguments: [
        ("9223372036854775808", Currency.jpy),
        ("-9223372036854775809", .jpy),
        ("9,223,372,036,854,775,808", .krw),
        ("92233720368547758.08", .usd),
        ("-92233720368547758.09", .usd),
        ("92233720368547759", .usd),
        ("18446744073709551616", .krw),
        ("99999999999999999999999999999", .krw),
    ])
    func magnitudeBeyondInt64Overflows(text: String, currency: Currency) {
        #expect(throws: MoneyError.overflow) { try Money.parse(text, currency: currency) }
    }
}

// MARK: - Arithmetic

@Suite("Money arithmetic")
struct MoneyArithmeticTests {
    func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }
    func krw(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .krw) }

    @Test func zeroAndSignPredicates() {
        let zero = Money.zero(.eur)
        #expect(zero.minorUnits == 0 && zero.currency == .eur)
        #expect(zero.isZero && !zero.isNegative && !zero.isPositive)
        #expect(usd(-1).isNegative && !usd(-1).isZero && !usd(-1).isPositive)
        #expect(usd(1).isPositive && !usd(1).isZero && !usd(1).isNegative)
    }

    @Test func addAndSubtract() throws {
        #expect(try usd(1_250).adding(usd(75)) == usd(1_325))
        #expect(try usd(1_250).subtracting(usd(2_000)) == usd(-750))
        #expect(try krw(Int64.max - 1).adding(krw(1)) == krw(Int64.max))
        #expect(try krw(Int64.min + 1).subtracting(krw(1)) == krw(Int64.min))
    }

    @Test func addAndSubtractOverflowAtBounds() {
        #expect(throws: MoneyError.overflow) { try krw(Int64.max).adding(krw(1)) }
        #expect(throws: MoneyError.overflow) { try krw(Int64.min).adding(krw(-1)) }
        #expect(throws: MoneyError.overflow) { try krw(Int64.min).subtracting(krw(1)) }
        #expect(throws: MoneyError.overflow) { try krw(Int64.max).subtracting(krw(-1)) }
        #expect(throws: MoneyError.overflow) { try krw(0).subtracting(krw(Int64.min)) }
    }

    @Test func currencyMismatchIsRefused() {
        #expect(throws: MoneyError.currencyMismatch(.usd, .krw)) { try usd(1).adding(krw(1)) }
        #expect(throws: MoneyError.currencyMismatch(.krw, .usd)) { try krw(1).subtracting(usd(1)) }
        #expect(throws: MoneyError.currencyMismatch(.usd, .eur)) {
            try usd(1).compare(Money(minorUnits: 1, currency: .eur))
        }
        #expect(throws: MoneyError.currencyMismatch(.krw, .jpy)) {
            try krw(1).isLess(than: Money(minorUnits: 2, currency: .jpy))
        }
        #expect(usd(100) != Money(minorUnits: 100, currency: .eur))
    }

    @Test func negation() throws {
        #expect(try usd(1_250).negated() == usd(-1_250))
        #expect(try usd(-1).negated() == usd(1))
        #expect(try usd(0).negated() == usd(0))
        #expect(try krw(Int64.max).negated() == krw(-Int64.max))
        #expect(throws: MoneyError.overflow) { try krw(Int64.min).negated() }
    }

    @Test func multiplication() throws {
        #expect(try usd(1_250).multiplied(by: 3) == usd(3_750))
        #expect(try usd(1_250).multiplied(by: -2) == usd(-2_500))
        #expect(try usd(1_250).multiplied(by: 0) == usd(0))
        #expect(throws: MoneyError.overflow) { try krw(Int64.max).multiplied(by: 2) }
        #expect(throws: MoneyError.overflow) { try krw(Int64.min).multiplied(by: -1) }
        #expect(throws: MoneyError.overflow) { try krw(4_611_686_018_427_387_904).multiplied(by: 2) }
        #expect(try krw(-4_611_686_018_427_387_904).multiplied(by: 2) == krw(Int64.min))
    }

    @Test func comparison() throws {
        #expect(try usd(1).compare(usd(2)) == .less)
        #expect(try usd(2).compare(usd(2)) == .equal)
        #expect(try usd(3).compare(usd(2)) == .greater)
        #expect(try usd(-5).isLess(than: usd(0)))
        #expect(try !usd(0).isLess(than: usd(0)))
        #expect(try usd(10).isGreater(than: usd(9)))
        #expect(try !usd(9).isGreater(than: usd(10)))
    }

    @Test func sum() throws {
        #expect(try Money.sum([], currency: .krw) == Money.zero(.krw))
        #expect(try Money.sum([krw(1_000), krw(-250), krw(5)], currency: .krw) == krw(755))
        #expect(throws: MoneyError.currencyMismatch(.krw, .usd)) { try Money.sum([krw(1), usd(1)], currency: .krw) }
        #expect(throws: MoneyError.currencyMismatch(.eur, .krw)) { try Money.sum([krw(1)], currency: .eur) }
        #expect(throws: MoneyError.overflow) { try Money.sum([krw(Int64.max), krw(1)], currency: .krw) }
        // Intermediate overflow is reported even if later terms would bring the total back in range.
        #expect(throws: MoneyError.overflow) {
            try Money.sum([krw(Int64.max), krw(1), krw(-1)], currency: .krw)
        }
    }
}

// MARK: - Scaling and rounding

@Suite("Money.scaled")
struct MoneyScalingTests {
    /// (minor units, numerator, denominator, [halfEven, halfUp, down, up])
    @Test(arguments: [
        (Int64(25), Int64(1), Int64(10), [Int64(2), 3, 2, 3]), // 2.5
        (35, 1, 10, [4, 4, 3, 4]), // 3.5
        (-25, 1, 10, [-2, -3, -2, -3]), // -2.5
        (-35, 1, 10, [-4, -4, -3, -4]), // -3.5
        (26, 1, 10, [3, 3, 2, 3]), // 2.6
        (24, 1, 10, [2, 2, 2, 3]), // 2.4
        (-24, 1, 10, [-2, -2, -2, -3]), // -2.4
        (-26, 1, 10, [-3, -3, -2, -3]), // -2.6
        (30, 1, 10, [3, 3, 3, 3]), // exact
        (-30, 1, 10, [-3, -3, -3, -3]), // exact negative
        (25, 1, -10, [-2, -3, -2, -3]), // negative denominator
        (25, -1, -10, [2, 3, 2, 3]), // both negative
        (1, 1, 2, [0, 1, 0, 1]), // 0.5
        (-1, 1, 2, [0, -1, 0, -1]), // -0.5
        (1, 1, 3, [0, 0, 0, 1]), // 0.333…
        (2, 1, 3, [1, 1, 0, 1]), // 0.666…
        (1_234_567, 3, 1_000, [3_704, 3_704, 3_703, 3_704]), // 0.3% fee: 3703.701
        (10_000, 1, 3, [3_333, 3_333, 3_333, 3_334]), // 3333.33…
        (0, 7, 3, [0, 0, 0, 0]),
    ])
    func roundingRules(minorUnits: Int64, numerator: Int64, denominator: Int64, expected: [Int64]) throws {
        let amount = Money(minorUnits: minorUnits, currency: .usd)
        let rules: [RoundingRule] = [.halfEven, .halfUp, .down, .up]
        for (rule, want) in zip(rules, expected) {
            let result = try amount.scaled(by: numerator, over: denominator, rounding: rule)
            #expect(result == Money(minorUnits: want, currency: .usd), "rule \(rule)")
        }
    }

    @Test func defaultRuleIsHalfEven() throws {
        let five = Money(minorUnits: 5, currency: .krw)
        let seven = Money(minorUnits: 7, currency: .krw)
        #expect(try five.scaled(by: 1, over: 2).minorUnits == 2)
        #expect(try seven.scaled(by: 1, over: 2).minorUnits == 4)
    }

    @Test func intermediateProductBeyondInt64IsExact() throws {
        let max = Money(minorUnits: Int64.max, currency: .krw)
        #expect(try max.scaled(by: 3, over: 3) == max)
        #expect(try max.scaled(by: Int64.max, over: Int64.max) == max)
        let min = Money(minorUnits: Int64.min, currency: .krw)
        #expect(try min.scaled(by: Int64.min, over: Int64.min) == min)
        // 9223372036854775807 × 2 / 4 = 4611686018427387903.5 → halfEven 4611686018427387904
        #expect(try max.scaled(by: 2, over: 4).minorUnits == 4_611_686_018_427_387_904)
        #expect(try max.scaled(by: 2, over: 4, rounding: .down).minorUnits == 4_611_686_018_427_387_903)
    }

    @Test func resultBeyondInt64Overflows() {
        let max = Money(minorUnits: Int64.max, currency: .krw)
        let min = Money(minorUnits: Int64.min, currency: .krw)
        #expect(throws: MoneyError.overflow) { try max.scaled(by: 2, over: 1) }
        #expect(throws: MoneyError.overflow) { try min.scaled(by: -1, over: 1) }
        #expect(throws: MoneyError.overflow) { try min.scaled(by: 1, over: -1) }
        #expect(throws: MoneyError.overflow) { try max.scaled(by: Int64.max, over: Int64.max - 1) }
    }

    @Test func zeroDenominatorIsRefused() {
        #expect(throws: MoneyError.divisionByZero) {
            try Money(minorUnits: 100, currency: .usd).scaled(by: 1, over: 0)
        }
    }
}

// MARK: - Split

@Suite("Money.split")
struct MoneySplitTests {
    @Test(arguments: [
        (Int64(100), 3, [Int64(34), 33, 33]),
        (-100, 3, [-34, -33, -33]),
        (5, 10, [1, 1, 1, 1, 1, 0, 0, 0, 0, 0]),
        (-5, 7, [-1, -1, -1, -1, -1, 0, 0]),
        (10, 5, [2, 2, 2, 2, 2]),
        (0, 3, [0, 0, 0]),
        (7, 1, [7]),
        (Int64.max, 2, [4_611_686_018_427_387_904, 4_611_686_018_427_387_903]),
        (Int64.min, 3, [-3_074_457_345_618_258_603, -3_074_457_345_618_258_603, -3_074_457_345_618_258_602]),
    ])
    func splitsExactly(minorUnits: Int64, parts: Int, expected: [Int64]) throws {
        let amount = Money(minorUnits: minorUnits, currency: .krw)
        let split = try amount.split(into: parts)
        #expect(split.map(\.minorUnits) == expected)
        #expect(split.allSatisfy { $0.currency == .krw })
        #expect(try Money.sum(split, currency: .krw) == amount)
    }

    @Test(arguments: [Int64(1), 999, 1_000_001, -7_777, 123_456_789_012])
    func partsSumToTheWholeAndDifferByAtMostOne(minorUnits: Int64) throws {
        let amount = Money(minorUnits: minorUnits, currency: .usd)
        for parts in [2, 3, 7, 13, 100] {
            let split = try amount.split(into: parts)
            #expect(split.count == parts)
            #expect(try Money.sum(split, currency: .usd) == amount)
            let values = split.map(\.minorUnits)
            #expect((values.max() ?? 0) - (values.min() ?? 0) <= 1)
        }
    }

    @Test(arguments: [0, -1, Int.min])
    func invalidParts(parts: Int) {
        #expect(throws: MoneyError.invalidParts(parts)) {
            try Money(minorUnits: 100, currency: .krw).split(into: parts)
        }
    }
}

// MARK: - Formatting

@Suite("Money formatting")
struct MoneyFormattingTests {
    static let bhd = (try? Currency(code: "BHD")) ?? .usd

    @Test(arguments: [
        (Int64(0), Currency.krw, "0 KRW"),
        (10_000, .krw, "10,000 KRW"),
        (999, .krw, "999 KRW"),
        (1_000, .krw, "1,000 KRW"),
        (1_234_567, .krw, "1,234,567 KRW"),
        (-1_000_000, .krw, "-1,000,000 KRW"),
        (0, .jpy, "0 JPY"),
        (-7, .jpy, "-7 JPY"),
        (1_250, .usd, "12.50 USD"),
        (5, .usd, "0.05 USD"),
        (-5, .usd, "-0.05 USD"),
        (0, .usd, "0.00 USD"),
        (-123_405, .usd, "-1,234.05 USD"),
        (100_000_000, .eur, "1,000,000.00 EUR"),
        (1_234_567, bhd, "1,234.567 BHD"),
        (1, bhd, "0.001 BHD"),
        (-1_000, bhd, "-1.000 BHD"),
        (0, bhd, "0.000 BHD"),
        (Int64.max, .krw, "9,223,372,036,854,775,807 KRW"),
        (Int64.min, .krw, "-9,223,372,036,854,775,808 KRW"),
        (Int64.max, .usd, "92,233,720,368,547,758.07 USD"),
        (Int64.min, .usd, "-92,233,720,368,547,758.08 USD"),
    ])
    func formatted(minorUnits: Int64, currency: Currency, expected: String) throws {
        let money = Money(minorUnits: minorUnits, currency: currency)
        #expect(money.formatted() == expected)
        #expect(money.description == expected)
        #expect(money.formattedAmount() + " " + currency.code == expected)
        #expect(!money.formattedAmount().contains(currency.code))
        // What we print, we can read back exactly.
        #expect(try Money.parse(money.formatted(), currency: currency) == money)
        #expect(try Money.parse(money.formattedAmount(), currency: currency) == money)
    }

    @Test func formattedAmountExamples() {
        #expect(Money(minorUnits: 10_000, currency: .krw).formattedAmount() == "10,000")
        #expect(Money(minorUnits: 1_250, currency: .usd).formattedAmount() == "12.50")
        #expect(Money(minorUnits: -123_405, currency: .usd).formattedAmount() == "-1,234.05")
    }
}

// MARK: - Codable and errors

@Suite("Money Codable and errors")
struct MoneyCodableTests {
    @Test func encodesWithSnakeCaseKeysAndPlainCode() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(Money(minorUnits: 1_250, currency: .usd))
        #expect(String(decoding: data, as: UTF8.self) == #"{"currency":"USD","minor_units":1250}"#)
    }

    @Test func decodesDocumentedShape() throws {
        let json = Data(#"{"minor_units": -123405, "currency": "usd"}"#.utf8)
        #expect(try JSONDecoder().decode(Money.self, from: json) == Money(minorUnits: -123_405, currency: .usd))
    }

    @Test(arguments: [Int64(0), 1_250, -1, Int64.max, Int64.min])
    func roundTrip(minorUnits: Int64) throws {
        for currency in [Currency.krw, .usd, .jpy, .eur] {
            let money = Money(minorUnits: minorUnits, currency: currency)
            let decoded = try JSONDecoder().decode(Money.self, from: JSONEncoder().encode(money))
            #expect(decoded == money)
        }
    }

    @Test(arguments: [
        #"{"minor_units": 1, "currency": "XYZ"}"#,
        #"{"minor_units": 1.5, "currency": "USD"}"#,
        #"{"minor_units": "1", "currency": "USD"}"#,
        #"{"currency": "USD"}"#,
        #"{"minor_units": 1}"#,
    ])
    func rejectsBadJSON(json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Money.self, from: Data(json.utf8)) }
    }

    @Test func errorDescriptionsNameTheValue() {
        #expect(
            MoneyError.tooManyFractionDigits("12.505", allowed: 2).description
                == "“12.505” has more than 2 decimal places, which this currency does not allow.")
        #expect(MoneyError.tooManyFractionDigits("1.5", allowed: 0).description.contains("“1.5”"))
        #expect(MoneyError.unknownCurrency("XYZ").description == "“XYZ” is not a supported currency code.")
        #expect(MoneyError.invalidAmount("1e5").description.hasPrefix("“1e5” is not a valid amount"))
        #expect(MoneyError.invalidAmount("").description == "No amount was given.")
        #expect(MoneyError.currencyMismatch(.krw, .usd).description == "Expected an amount in KRW but got one in USD.")
        #expect(MoneyError.invalidParts(0).description.contains("0 parts"))
        #expect(!MoneyError.overflow.description.isEmpty)
        #expect(!MoneyError.divisionByZero.description.isEmpty)
    }

    @Test func parseErrorsCarryTheOffendingInput() {
        do {
            _ = try Money.parse("12.505", currency: .usd)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("“12.505”"))
            #expect(error.description.contains("2 decimal places"))
        }
    }
}

// MARK: - Bounds

@Suite("AmountBounds")
struct AmountBoundsTests {
    @Test func theBoundsAreTheDocumentedOnesInEveryCurrency() {
        #expect(AmountBounds.maximumOperationMinorUnits == 100_000_000_000)
        #expect(AmountBounds.maximumBalanceMinorUnits == 1_000_000_000_000_000)
        #expect(AmountBounds.maximumOperation(in: .krw).formatted() == "100,000,000,000 KRW")
        #expect(AmountBounds.maximumOperation(in: .usd).formatted() == "1,000,000,000.00 USD")
        #expect(AmountBounds.maximumBalance(in: .krw).formatted() == "1,000,000,000,000,000 KRW")
    }

    @Test func noSumAPostingComputesCanOverflowAndEveryBalanceIsExactInJSON() throws {
        let currency = Currency.krw
        let full = AmountBounds.maximumBalance(in: currency)
        #expect(throws: Never.self) { try full.adding(AmountBounds.maximumOperation(in: currency)) }
        #expect(AmountBounds.maximumBalanceMinorUnits < Int64(1) << 53, "a double holds every balance exactly")
    }

    @Test(arguments: [(Int64(1), true), (100_000_000_000, true), (100_000_000_001, false), (0, false), (-5, false), (Int64.max, false)])
    func operationBounds(minorUnits: Int64, within: Bool) {
        #expect(AmountBounds.isWithinOperationBounds(Money(minorUnits: minorUnits, currency: .usd)) == within)
    }

    @Test func balanceBounds() {
        #expect(AmountBounds.isWithinBalanceBounds(.zero(.krw)))
        #expect(AmountBounds.isWithinBalanceBounds(AmountBounds.maximumBalance(in: .krw)))
        #expect(!AmountBounds.isWithinBalanceBounds(Money(minorUnits: 1_000_000_000_000_001, currency: .krw)))
        #expect(!AmountBounds.isWithinBalanceBounds(Money(minorUnits: -1, currency: .krw)))
    }
}
