import Foundation

/// A package laid out like Moa, described the way `swift package describe --type json` does,
/// with source files: the input for `Scripts/check-architecture --describe … --root …`.
///
/// `Fixture.clean()` follows every rule; a test breaks exactly one and checks the line printed.
struct Fixture {
    struct Target {
        var name: String
        var path: String
        var type = "library"
        var dependencies: [String] = []
        var products: [String] = []
    }

    var targets: [Target] = []
    /// Source files, by path relative to the package root.
    var files: [String: String] = [:]
    /// How many import statements `files` really hold (imports in comments and strings excluded).
    var importStatements = 0

    // MARK: Building one

    mutating func add(
        _ name: String, _ path: String, type: String = "library",
        _ dependencies: [String] = [], products: [String] = [], source: String? = nil
    ) {
        targets.append(Target(name: name, path: path, type: type, dependencies: dependencies, products: products))
        let imports = (dependencies + products).map { "import \($0)" }.joined(separator: "\n")
        let file = source ?? (imports.isEmpty ? "" : imports + "\n") + "let marker = 1\n"
        files["\(path)/\(name).swift"] = file
        importStatements += file.split(separator: "\n").filter { $0.hasPrefix("import ") }.count
    }

    /// A feature's seven targets, each declaring (and its file importing) what a feature of Package.swift typically does.
    mutating func addFeature(_ name: String, uses: [String] = []) {
        let root = "Features/\(name)"
        let shared = ["Money", "SharedKit"]
        let interfaces = uses.map { $0 + "Interface" }
        let testings = uses.map { $0 + "Testing" }
        add("\(name)Interface", "\(root)/Interface", shared + ["Registry"])
        add("\(name)Domain", "\(root)/Domain", ["\(name)Interface"] + interfaces + shared + ["Registry"])
        add("\(name)Data", "\(root)/Data", ["\(name)Domain", "\(name)Interface", "Storage"] + shared + ["Registry"])
        add(
            "\(name)Feature", "\(root)/Feature",
            ["\(name)Domain", "\(name)Interface"] + interfaces + shared + ["Registry", "ViewModelKit", "DesignSystem", "CommandKit"],
            products: ["ArgumentParser"])
        add("\(name)Testing", "\(root)/Testing", ["\(name)Interface"] + shared)
        add(
            "\(name)Example", "\(root)/Example", type: "executable",
            ["\(name)Feature", "\(name)Data", "\(name)Domain", "\(name)Interface"] + testings + shared
                + ["Registry", "Storage", "CommandKit", "DesignSystem"],
            products: ["ArgumentParser"])
        add(
            "\(name)Tests", "Tests/\(name)Tests", type: "test",
            ["\(name)Interface", "\(name)Domain", "\(name)Data", "\(name)Feature", "\(name)Testing"] + testings
                + shared + ["Registry", "Storage", "ViewModelKit"])
        // The fixed file for each role (no imports: they do not change the count of imports checked).
        for (layer, role) in Self.roleFiles {
            files["\(root)/\(layer)/\(name)\(role).swift"] = "public struct \(name)\(role) {}\n"
        }
    }

    /// The files every feature keeps, by layer (Scripts/check-architecture's ROLE_FILES).
    static let roleFiles = [("Data", "DataModule"), ("Data", "Migrations"), ("Feature", "FeatureModule")]

    /// Shared, Core, features Account and Transfer (Transfer uses Account), the App and the
    /// cross-cutting tests; every rule kept. Its sources also hold imports that must *not* count:
    /// in comments and string literals.
    static func clean() -> Fixture {
        var fixture = Fixture()
        fixture.add("Money", "Shared/Money")
        fixture.add("SharedKit", "Shared/SharedKit", source: "import Foundation\nimport Synchronization\n")
        fixture.add("Registry", "Core/Registry", ["SharedKit"])
        fixture.add("Storage", "Core/Storage", ["SharedKit", "Registry"], products: ["GRDB"])
        fixture.add("Networking", "Core/Networking", ["SharedKit", "Registry"], products: ["Logging"])
        fixture.add("DesignSystem", "Core/DesignSystem", ["Money", "SharedKit"])
        fixture.add("ViewModelKit", "Core/ViewModelKit")
        fixture.add("CommandKit", "Core/CommandKit", ["DesignSystem", "SharedKit", "Registry"], products: ["ArgumentParser"])
        fixture.addFeature("Account")
        fixture.addFeature("Transfer", uses: ["Account"])
        let features = ["Account", "Transfer"].flatMap { f in ["Interface", "Domain", "Data", "Feature"].map { f + $0 } }
        fixture.add(
            "MoaApp", "App/MoaApp",
            ["Registry", "CommandKit", "DesignSystem", "Storage", "Networking", "SharedKit", "Money"] + features,
            products: ["ArgumentParser"])
        fixture.add("moa", "App/moa", type: "executable", ["MoaApp"])
        fixture.add(
            "CoreTests", "Tests/CoreTests", type: "test",
            ["Money", "SharedKit", "Registry", "Storage", "Networking"], products: ["GRDB", "Logging"])
        fixture.add(
            "ArchitectureTests", "Tests/ArchitectureTests", type: "test",
            source: "import Foundation\nimport Testing\n")
        fixture.add("AppTests", "Tests/AppTests", type: "test", ["MoaApp", "Registry", "AccountTesting"])

        fixture.files["Features/Transfer/Feature/SendMoneyScreen.swift"] = #"""
            import Foundation
            @preconcurrency import TransferDomain
            import struct AccountInterface.AccountNumber
            // import AccountDomain
            /* import AccountData
               /* nested */ import AccountFeature */
            let hint = "import AccountData"
            let template = """
            import AccountData
            \(hint) import AccountFeature
            """
            let raw = #"import "AccountData""#
            """#
        fixture.files["Features/Account/Data/Platform.swift"] = """
            #if canImport(Glibc)
            import Glibc
            #elseif canImport(Darwin)
            import Darwin
            #endif
            """
        fixture.files["Tests/AccountTests/AccountDomainTests.swift"] = """
            import Testing
            @testable import AccountDomain
            @testable import AccountData
            """
        fixture.importStatements += 3 + 2 + 3 // the three files above
        return fixture
    }

    // MARK: Editing one

    mutating func declare(_ dependency: String, in target: String) {
        let index = targets.firstIndex { $0.name == target }!
        targets[index].dependencies.append(dependency)
    }

    mutating func declare(product: String, in target: String) {
        let index = targets.firstIndex { $0.name == target }!
        targets[index].products.append(product)
    }

    /// The line of the fixture's Package.swift that declares `target` (one line per target).
    func declarationLine(of target: String) -> Int {
        targets.firstIndex { $0.name == target }! + 2
    }

    // MARK: Checking one

    /// Writes the fixture to a temporary directory and runs `Scripts/check-architecture --static` on it.
    func check() throws -> Scripts.Result {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("moa-fixture-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let describeFile = try write(to: root)
        return try Scripts.run("check-architecture", ["--static", "--describe", describeFile.path, "--root", root.path])
    }

    /// Writes the sources, a Package.swift (one target per line) and the describe JSON (returned)
    /// under `root`.
    @discardableResult
    func write(to root: URL) throws -> URL {
        for (path, contents) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        // Only read to find declaration lines: one target per line, from line 2 on.
        let manifest = ["// Fixture manifest"] + targets.map { #".target(name: "\#($0.name)", path: "\#($0.path)"),"# }
        try Data((manifest.joined(separator: "\n") + "\n").utf8).write(to: root.appendingPathComponent("Package.swift"))

        let describe: [String: Any] = [
            "name": "Fixture",
            "path": root.path,
            "targets": targets.map { target -> [String: Any] in
                var json: [String: Any] = ["name": target.name, "path": target.path, "type": target.type]
                if !target.dependencies.isEmpty { json["target_dependencies"] = target.dependencies }
                if !target.products.isEmpty { json["product_dependencies"] = target.products }
                return json
            },
        ]
        let describeFile = root.appendingPathComponent(".describe.json")
        try JSONSerialization.data(withJSONObject: describe, options: [.prettyPrinted, .sortedKeys]).write(to: describeFile)
        return describeFile
    }
}
