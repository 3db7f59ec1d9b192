// MoaFuzz: coverage-guided fuzz targets for every parser of outside input, built with libFuzzer and
// AddressSanitizer (`-sanitize=fuzzer,address`) by Scripts/fuzz, one target per run (MOA_FUZZ_TARGET).
//
// A target does more than "not crash": it checks what must hold of every input it is given (a value
// that parses prints as something that parses back to it; cleaned text holds no control character).
// A property that fails stops the run with its reason; libFuzzer keeps the input as a crash file.
//
// Scripts/fuzz reads the list below (`FuzzTarget(name: "…"`): keep one target per line of that form.
import AccountInterface
import ArchiveDomain
import AuthDomain
import DesignSystem
import Foundation
import FuzzDriver
import Money
import Networking
import SearchDomain
import SettingsDomain
import SharedKit
import TransferDomain
import TransferFeature

@testable import ArchiveData
@testable import SearchData

/// One fuzz target: what it parses, and the properties checked on every input.
struct FuzzTarget: Sendable {
    let name: String
    let about: String
    let run: @Sendable (Data) -> Void
}

/// Stops the run: `condition` is a property every input must keep.
func require(_ condition: Bool, _ what: @autoclosure () -> String) {
    if !condition { preconditionFailure("property broken: \(what())") }
}

/// `text`'s scalars without the carriage returns that come right before a line feed.
func withoutCRLF(_ text: String) -> String.UnicodeScalarView {
    let scalars = Array(text.unicodeScalars)
    return String.UnicodeScalarView(
        scalars.indices.filter { !(scalars[$0] == "\r" && $0 + 1 < scalars.count && scalars[$0 + 1] == "\n") }.map { scalars[$0] })
}

/// The input as text (invalid UTF-8 repaired, as a terminal or a file reader would see it).
func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

/// The scalars no printed or stored text may hold: C0 controls but LF and TAB, DEL, C1, bidi controls.
func isHostile(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A, 0x09: false
    case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
}

let currencies: [Currency] = ["KRW", "USD", "JPY", "EUR", "BHD"].compactMap { try? Currency(code: $0) }

let targets: [FuzzTarget] = [
    FuzzTarget(name: "amount", about: "Money.parse: an amount as a person types it, in a currency") { data in
        guard let first = data.first, !currencies.isEmpty else { return }
        let currency = currencies[Int(first) % currencies.count]
        guard let money = try? Money.parse(text(data.dropFirst()), currency: currency) else { return }
        let again = try? Money.parse(money.formattedAmount(), currency: currency)
        require(again == money, "\(money.minorUnits) printed as \(money.formattedAmount()) parses back to \(String(describing: again))")
    },
    FuzzTarget(name: "currency", about: "Currency(code:): an ISO 4217 code") { data in
        guard let currency = try? Currency(code: text(data)) else { return }
        require(currency.code.count == 3 && currency.code.allSatisfy(\.isUppercase), "code \(currency.code)")
        require((try? Currency(code: currency.code)) == currency, "\(currency.code) parses back")
    },
    FuzzTarget(name: "account-number", about: "AccountNumber: 110-1234-5678-9, with or without dashes") { data in
        guard let number = try? AccountNumber(text(data)) else { return }
        require((try? AccountNumber(number.description)) == number, "\(number) parses back")
        require(number.description.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "-") }, "\(number) is digits and dashes")
    },
    FuzzTarget(name: "email", about: "EmailAddress: a sign-up or login address") { data in
        guard let email = try? EmailAddress(text(data)) else { return }
        let shown = email.description
        require(shown.contains("@") && !shown.unicodeScalars.contains(where: isHostile), "\(shown.debugDescription)")
        require((try? EmailAddress(shown))?.description == shown, "\(shown) parses back to itself")
    },
    FuzzTarget(name: "day", about: "Day: a calendar day, YYYY-MM-DD") { data in
        guard let day = Day(text(data)) else { return }
        require(Day(day.description) == day, "\(day) parses back")
    },
    FuzzTarget(name: "batch-csv", about: "BatchFile.parse: a CSV batch of transfers") { data in
        guard let file = try? BatchFile.parse(text(data), file: "fuzz.csv") else { return }
        require(file.rows.allSatisfy { $0.line >= 2 }, "rows come after the header")
    },
    FuzzTarget(name: "catalogue-json", about: "the culturalEventInfo JSON, decoded and cleaned") { data in
        guard let page = try? CatalogueJSON.decodePage(data) else { return }
        for raw in (page.rows ?? []).compactMap({ $0 }) {
            guard case .success(let entry) = EventNormalizer.normalize(raw) else { continue }
            for field in [entry.event.title, entry.event.place, entry.event.category, entry.event.district, entry.event.audience] {
                require(!field.unicodeScalars.contains(where: isHostile), "cleaned text \(field.debugDescription)")
                require(field == field.trimmingCharacters(in: .whitespaces), "cleaned text is trimmed: \(field.debugDescription)")
            }
        }
    },
    FuzzTarget(name: "link-header", about: "LinkHeader.parse: an HTTP Link header") { data in
        let links = LinkHeader.parse(text(data), relativeTo: URL(string: "https://api.github.com/search/users"))
        for (relation, url) in links { require(!relation.isEmpty && url.scheme != nil, "\(relation) → \(url)") }
    },
    FuzzTarget(name: "http-error", about: "GitHub's error responses: status, headers and body") { data in
        guard data.count >= 2 else { return }
        let status = 400 + Int(data[data.startIndex]) % 200
        let response = HTTPResponse(
            status: status, headers: ["x-ratelimit-remaining": text(data.prefix(2).dropFirst())], body: Data(data.dropFirst(2)))
        let access = SearchAPIAccess(baseURL: URL(fileURLWithPath: "/"), token: String?.none)
        let error = GitHubAPI.error(for: response, login: "ada", access: access, path: "/users/ada", now: Date(timeIntervalSince1970: 0))
        require(!error.message.isEmpty && !error.message.hasSuffix(".."), "one sentence: \(error.message.debugDescription)")
    },
    FuzzTarget(name: "setting-value", about: "SettingKey.parse: a value for each setting") { data in
        guard let first = data.first else { return }
        let key = SettingKey.allCases[Int(first) % SettingKey.allCases.count]
        _ = try? key.parse(text(data.dropFirst()))
    },
    FuzzTarget(name: "alias", about: "RecipientAlias: a favourite's alias, in any script") { data in
        guard let alias = try? RecipientAlias(text(data)) else { return }
        require(!alias.name.unicodeScalars.contains(where: isHostile), "alias \(alias.name.debugDescription)")
        // Reads like a number: nothing but digits (with the marks that may sit on them), `-` and `_`. An
        // ideograph with a numeric reading (七, or 拐 for "7" on a Chinese phone line) is a letter: the
        // alias 9拐 is no account number (Character.isNumber says otherwise, found by this target).
        let digitLike = alias.name.unicodeScalars.allSatisfy {
            $0.properties.numericType == .decimal || $0 == "-" || $0 == "_"
                || [.nonspacingMark, .spacingMark, .enclosingMark].contains($0.properties.generalCategory)
        }
        require(!digitLike, "alias \(alias.name) reads like a number")
        require((try? AccountNumber(alias.name)) == nil, "alias \(alias.name) parses as an account number")
        require((try? RecipientAlias(alias.name))?.key == alias.key, "\(alias.name) parses back to the same key")
    },
    FuzzTarget(name: "terminal-safe", about: "TerminalSafe.neutralize: whatever text reaches the terminal") { data in
        // A carriage return right before a line feed (CRLF) is kept: it moves nothing. (Removed scalar by
        // scalar: `"\r\n\u{0353}"` is not the two characters `"\r\n"` and `"\u{0353}"` to every API.)
        let shown = withoutCRLF(TerminalSafe.neutralize(text(data)))
        require(!shown.contains(where: { isHostile($0) }), "neutralized text \(String(shown).debugDescription)")
        // Nothing in the input carries the theme's signature, so no escape at all survives, even
        // when the theme's styling is kept.
        let styled = withoutCRLF(TerminalSafe.neutralize(text(data), keepingStyle: true))
        require(!styled.contains(where: { isHostile($0) }), "stored text keeps no escape: \(String(styled).debugDescription)")
    },
]

/// The target this run fuzzes, named by MOA_FUZZ_TARGET.
let selected: FuzzTarget? = {
    let name = ProcessInfo.processInfo.environment["MOA_FUZZ_TARGET"] ?? ""
    return targets.first { $0.name == name }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let selected else {
        preconditionFailure("MOA_FUZZ_TARGET names no target; one of: \(targets.map(\.name).joined(separator: ", "))")
    }
    selected.run(bytes.map { Data(bytes: $0, count: size) } ?? Data())
    return 0
}
