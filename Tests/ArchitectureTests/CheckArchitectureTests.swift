import Foundation
import Testing

/// `Scripts/check-architecture` on the real package, and on fixtures that each break one rule.
@Suite("Scripts/check-architecture")
struct CheckArchitectureTests {
    // MARK: The real package

    @Test("the real package follows the dependency rules")
    func realPackagePasses() throws {
        let result = try Scripts.run("check-architecture", ["--static"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("architecture ok: "), "\(result)")
    }

    // MARK: Fixtures

    @Test("a clean fixture passes, and imports in comments and strings do not count")
    func cleanFixturePasses() throws {
        let fixture = Fixture.clean()
        let result = try fixture.check()
        #expect(result.status == 0, "\(result)")
        #expect(
            result.lines == [
                "architecture ok: \(fixture.targets.count) targets, \(fixture.importStatements) imports checked, 0 redundant declared dependencies"
            ],
            "\(result)")
    }

    @Test("a Feature importing another feature's Domain is caught, with file, line, target, module and rule")
    func featureImportingAnotherFeaturesDomain() throws {
        var fixture = Fixture.clean()
        fixture.files["Features/Transfer/Feature/TransferView.swift"] = """
            import Foundation
            import TransferDomain
            import AccountDomain
            """
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        #expect(
            result.lines == [
                "Features/Transfer/Feature/TransferView.swift:3 TransferFeature → AccountDomain: a Feature may only use other features' Interface"
            ], "\(result)")
    }

    @Test("a target of moa that writes to a standard stream itself is caught; one through CommandContext is not")
    func rawOutputOutsideCommandContext() throws {
        var fixture = Fixture.clean()
        fixture.files["Features/Transfer/Feature/TransferPrinter.swift"] = #"""
            import Foundation
            func show(_ title: String, context: Context) {
                context.print(title) // print("in a comment") is not a write
                let text = "print(\(title))"
                print(title)
            }
            """#
        fixture.files["Features/Account/Data/AccountLog.swift"] = """
            import Foundation
            func log(_ line: String) { FileHandle.standardError.write(Data(line.utf8)) }
            func print(_ line: String) {}
            """
        fixture.files["Tests/CoreTests/Noisy.swift"] = "func noisy() { print(\"tests may print\") }\n"
        fixture.importStatements += 2
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        let advice = "write through CommandContext (context.out, context.err, a Screen), whose streams are terminal-safe"
        #expect(
            result.lines == [
                "Features/Account/Data/AccountLog.swift:2 AccountData: writes to a standard stream itself (`FileHandle.standardError`): \(advice)",
                "Features/Transfer/Feature/TransferPrinter.swift:5 TransferFeature: writes to a standard stream itself (`print`): \(advice)",
            ], "\(result)")
    }

    @Test("a bare Mutex anywhere but SharedKit's Locked is refused, in product and test code alike; one in a comment is not")
    func oneLockType() throws {
        var fixture = Fixture.clean()
        fixture.files["Features/Transfer/Domain/TransferQueue.swift"] = """
            import Synchronization
            // A Mutex here would look raced to TSan.
            final class TransferQueue: Sendable { let pending = Mutex<[Int]>([]) }
            struct MutexFree { let name = "Mutex"; let handle = _MutexHandle.self; let other = lock.Mutex }
            """
        fixture.files["Tests/CoreTests/Counting.swift"] = "let counted = Synchronization.Mutex(0)\n"
        fixture.files["Shared/SharedKit/Locked.swift"] = "public final class Locked { let mutex = Mutex(0) }\n"
        fixture.importStatements += 1
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        let advice = "use SharedKit's Locked, whose handover ThreadSanitizer sees (a contended Mutex on Linux looks raced to it)"
        #expect(
            result.lines == [
                "Features/Transfer/Domain/TransferQueue.swift:3 TransferDomain: uses Mutex: \(advice)",
                "Tests/CoreTests/Counting.swift:1 CoreTests: uses Mutex: \(advice)",
            ], "\(result)")
    }

    @Test("a feature's PostgreSQL stores see only their own feature; the feature's own tests and Example may not use them")
    func postgresLayer() throws {
        var fixture = Fixture.clean()
        fixture.add("TransferPostgres", "Features/Transfer/Postgres", ["TransferDomain", "TransferInterface", "Storage", "AccountDomain"])
        fixture.declare("TransferPostgres", in: "TransferTests")
        fixture.files["Tests/TransferTests/TransferPostgresTests.swift"] = "import TransferPostgres\n"
        fixture.declare("TransferPostgres", in: "MoaApp")
        fixture.files["App/MoaApp/Server.swift"] = "import TransferPostgres\n"
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        let tests = fixture.declarationLine(of: "TransferTests")
        let postgres = fixture.declarationLine(of: "TransferPostgres")
        // (App may compose any feature's PostgreSQL stores: MoaApp's import is not reported.)
        let ownOnly = "a feature's tests may only use its own feature's Interface, Domain, Data, Feature, Testing and Example"
        #expect(
            result.lines == [
                "Package.swift:\(tests) TransferTests → TransferPostgres: \(ownOnly)",
                "Package.swift:\(postgres) TransferPostgres → AccountDomain: a feature's PostgreSQL stores may not use another feature's module",
                "Features/Transfer/Postgres/TransferPostgres.swift:4 TransferPostgres → AccountDomain: a feature's PostgreSQL stores may not use another feature's module",
                "Tests/TransferTests/TransferPostgresTests.swift:1 TransferTests → TransferPostgres: \(ownOnly)",
            ], "\(result)")
    }

    @Test("a store or handler planted under App/ is refused; the same type in its feature's Postgres and Server targets is not")
    func implementationsLiveInTheirFeature() throws {
        var fixture = Fixture.clean()
        fixture.files["Features/Account/Domain/AccountStore.swift"] = "public protocol AccountStore: Sendable {}\n"
        fixture.add("AccountAPI", "Features/Account/API", source: "public protocol APIProtocol: Sendable {}\n")
        fixture.add("AccountPostgres", "Features/Account/Postgres", ["AccountDomain", "AccountInterface"])
        fixture.files["Features/Account/Postgres/PostgresAccountStore.swift"] =
            "import AccountDomain\nstruct PostgresAccountStore: AccountStore {}\n"
        fixture.add("AccountServer", "Features/Account/Server", ["AccountAPI", "AccountDomain"])
        fixture.files["Features/Account/Server/AccountHandlers.swift"] = "import AccountAPI\nstruct AccountHandlers: APIProtocol {}\n"
        fixture.declare("AccountAPI", in: "MoaApp")
        fixture.files["App/MoaApp/Planted.swift"] = """
            import AccountDomain
            import AccountAPI

            /// A PostgreSQL store where the App should only compose.
            final class PlantedAccountStore: @unchecked Sendable, AccountStore {
            }
            struct ServerAPI: Sendable,
                APIProtocol {}
            extension AccountStore where Self: Equatable {}
            struct Unrelated: Equatable {}
            """
        fixture.importStatements += 2 + 1 + 1
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        let rule = "a feature's stores, use cases and handlers live in its own folder (Features/Account/…), and the App only composes them"
        let app = fixture.declarationLine(of: "MoaApp")
        #expect(
            result.lines == [
                "Package.swift:\(app) MoaApp → AccountAPI: the App may only use features' Feature, Data, Postgres, Server, Remote, Domain and Interface",
                "App/MoaApp/Planted.swift:2 MoaApp → AccountAPI: the App may only use features' Feature, Data, Postgres, Server, Remote, Domain and Interface",
                "App/MoaApp/Planted.swift:5 MoaApp: PlantedAccountStore implements AccountStore of AccountDomain: \(rule)",
                "App/MoaApp/Planted.swift:7 MoaApp: ServerAPI implements APIProtocol of AccountAPI: \(rule)",
            ], "\(result)")
    }

    @Test("NIO in an Example's or a feature test's closure, and a server package in moa's, are refused with the path that brings it")
    func heavyPackagesStayOutOfLightClosures() throws {
        var fixture = Fixture.clean()
        fixture.declare(product: "NIOCore", in: "Networking")
        fixture.files["Core/Networking/Loop.swift"] = "import NIOCore\n"
        fixture.declare("Networking", in: "AccountData")
        fixture.files["Features/Account/Data/Remote.swift"] = "import Networking\n"
        fixture.add("MoaStores", "App/MoaStores", products: ["PostgresNIO"])
        fixture.declare("MoaStores", in: "MoaApp")
        fixture.files["App/MoaApp/Serve.swift"] = "import MoaStores\n"
        fixture.importStatements += 3
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        let rule = "an Example or a feature's tests must build without it"
        #expect(
            result.lines == [
                "Package.swift:\(fixture.declarationLine(of: "AccountExample")) AccountExample: its closure builds NIOCore (AccountExample → AccountData → Networking → NIOCore): \(rule)",
                "Package.swift:\(fixture.declarationLine(of: "AccountTests")) AccountTests: its closure builds NIOCore (AccountTests → AccountData → Networking → NIOCore): \(rule)",
                "Package.swift:\(fixture.declarationLine(of: "moa")) moa: its closure builds PostgresNIO (moa → MoaApp → MoaStores → PostgresNIO): moa must build without it",
            ], "\(result)")
    }

    @Test("two types of ours with one name are refused, wherever they are; nested and generated ones are not")
    func oneNameForOneThing() throws {
        var fixture = Fixture.clean()
        fixture.files["Features/Account/Data/AccountRows.swift"] = "struct StoredText {}\nenum Outer { struct Row {} }\n"
        fixture.files["Features/Transfer/Data/TransferRows.swift"] = "@usableFromInline final class StoredText {}\nstruct Row {}\n"
        fixture.files["Features/Transfer/API/Generated/Types.swift"] = "public struct Client {}\n"
        fixture.files["Features/Account/API/Generated/Types.swift"] = "public struct Client {}\n"
        fixture.add("AccountAPI", "Features/Account/API", source: "public enum Operations {}\n")
        fixture.add("TransferAPI", "Features/Transfer/API", source: "public enum Operations {}\n")
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        #expect(
            result.lines == [
                "Features/Transfer/Data/TransferRows.swift:1 TransferData: the type StoredText is also declared in Features/Account/Data/AccountRows.swift (AccountData): one name for one thing — name each after what it is"
            ], "\(result)")
    }

    @Test("a dependency declared but imported by no file of the target is reported as redundant")
    func redundantDeclaredDependency() throws {
        var fixture = Fixture.clean()
        fixture.declare("Networking", in: "AccountData")
        fixture.declare(product: "Logging", in: "AccountData")
        let line = fixture.declarationLine(of: "AccountData")
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        #expect(
            result.lines == [
                "Package.swift:\(line) AccountData → Logging: declared but imported by no file of AccountData (a redundant dependency: remove it)",
                "Package.swift:\(line) AccountData → Networking: declared but imported by no file of AccountData (a redundant dependency: remove it)",
            ], "\(result)")
    }

    @Test("a Domain declaring an external package is caught: Domain is pure Swift")
    func domainDependingOnExternalPackage() throws {
        var fixture = Fixture.clean()
        fixture.declare(product: "GRDB", in: "AccountDomain")
        let line = fixture.declarationLine(of: "AccountDomain")
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        #expect(
            result.lines == [
                "Package.swift:\(line) AccountDomain → GRDB: a Domain is pure Swift: no external package"
            ], "\(result)")
    }

    @Test("importing a module that is only reachable transitively is caught")
    func importOnlyReachableTransitively() throws {
        var fixture = Fixture.clean()
        // AccountTesting declares AccountInterface, which declares Registry; AccountData reaches GRDB through Storage.
        fixture.files["Features/Account/Testing/FakeRegistration.swift"] = "import AccountInterface\nimport Registry\n"
        fixture.files["Features/Account/Data/AccountRecord.swift"] = "import Storage\nimport GRDB\n"
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        #expect(
            result.lines == [
                "Features/Account/Data/AccountRecord.swift:2 AccountData → GRDB: only reachable transitively: declare its product as a direct dependency of AccountData in Package.swift",
                "Features/Account/Testing/FakeRegistration.swift:2 AccountTesting → Registry: only reachable transitively: declare Registry as a direct dependency of AccountTesting in Package.swift",
            ], "\(result)")
    }

    @Test("an undeclared import of an allowed module is caught")
    func undeclaredImport() throws {
        var fixture = Fixture.clean()
        fixture.files["Features/Account/Domain/Clock.swift"] = "import AccountInterface\nimport TransferInterface\n"
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        #expect(
            result.lines == [
                "Features/Account/Domain/Clock.swift:2 AccountDomain → TransferInterface: not a declared dependency of AccountDomain in Package.swift"
            ], "\(result)")
    }

    @Test("a @testable import of another feature's Data in a feature's tests is caught")
    func testableImport() throws {
        var fixture = Fixture.clean()
        fixture.files["Tests/AccountTests/TransferTouchingTests.swift"] = """
            import Testing
            @testable import AccountDomain
            @testable import TransferData
            """
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        #expect(
            result.lines == [
                "Tests/AccountTests/TransferTouchingTests.swift:3 AccountTests → TransferData: a feature's tests may only use other features' Testing and Interface"
            ], "\(result)")
    }

    @Test("an import inside #if … #endif is caught")
    func importInsideConditionalCompilation() throws {
        var fixture = Fixture.clean()
        fixture.files["Features/Account/Data/Sync.swift"] = """
            #if canImport(Glibc)
            import Glibc
            #else
                import TransferDomain
            #endif
            """
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        #expect(
            result.lines == [
                "Features/Account/Data/Sync.swift:4 AccountData → TransferDomain: a Data target may not use another feature's module"
            ], "\(result)")
    }

    @Test("every import form is recognised: attributes, access levels, kinds, submodules, statements after ;")
    func importForms() throws {
        var fixture = Fixture.clean()
        fixture.files["Features/Account/Interface/Forms.swift"] = """
            @_exported import Money
            public import Registry; import TransferDomain
            @_implementationOnly import TransferData
            package import struct TransferFeature.SendMoneyScreen
            @preconcurrency internal import func TransferTesting.makeFake
            import TransferExample.Sub
            @_spi(Internal) @testable
            import Storage
            """
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        let file = "Features/Account/Interface/Forms.swift"
        let rule = "an Interface may not use another feature's module"
        #expect(
            result.lines == [
                "\(file):2 AccountInterface → TransferDomain: \(rule)",
                "\(file):3 AccountInterface → TransferData: \(rule)",
                "\(file):4 AccountInterface → TransferFeature: \(rule)",
                "\(file):5 AccountInterface → TransferTesting: \(rule)",
                "\(file):6 AccountInterface → TransferExample: \(rule)",
                "\(file):8 AccountInterface → Storage: an Interface may only use Core model modules (Persistence, Registry), not Storage (infrastructure)",
            ], "\(result)")
    }

    @Test("an Interface declaring another feature's Interface is caught")
    func interfaceDependingOnAnotherInterface() throws {
        var fixture = Fixture.clean()
        fixture.declare("AccountInterface", in: "TransferInterface")
        let line = fixture.declarationLine(of: "TransferInterface")
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        #expect(
            result.lines == [
                "Package.swift:\(line) TransferInterface → AccountInterface: an Interface may not use another feature's module"
            ], "\(result)")
    }

    @Test("the App declaring a Testing target is caught")
    func appDependingOnTesting() throws {
        var fixture = Fixture.clean()
        fixture.declare("AccountTesting", in: "MoaApp")
        let line = fixture.declarationLine(of: "MoaApp")
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        #expect(
            result.lines == [
                "Package.swift:\(line) MoaApp → AccountTesting: the App may only use features' Feature, Data, Postgres, Server, Remote, Domain and Interface"
            ], "\(result)")
    }

    @Test("a Feature declaring Core infrastructure is caught")
    func featureDependingOnStorage() throws {
        var fixture = Fixture.clean()
        fixture.declare("Storage", in: "AccountFeature")
        let line = fixture.declarationLine(of: "AccountFeature")
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        #expect(
            result.lines == [
                "Package.swift:\(line) AccountFeature → Storage: a Feature may only use Core model and presentation modules (CommandKit, DesignSystem, Persistence, Registry, ViewModelKit), not Storage (infrastructure)"
            ], "\(result)")
    }

    @Test("an unclassified Core module is caught")
    func unclassifiedCoreModule() throws {
        var fixture = Fixture.clean()
        fixture.add("Cache", "Core/Cache", ["SharedKit"])
        let line = fixture.declarationLine(of: "Cache")
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        #expect(
            result.lines == [
                "Package.swift:\(line) Cache: unclassified Core module: add it to CORE_LAYERS at the top of Scripts/check-architecture (model, infrastructure or presentation)"
            ], "\(result)")
    }

    @Test("a target outside the layout is caught")
    func targetOutsideTheLayout() throws {
        var fixture = Fixture.clean()
        fixture.add("Helpers", "Sources/Helpers")
        let line = fixture.declarationLine(of: "Helpers")
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        #expect(
            result.lines == [
                "Package.swift:\(line) Helpers: outside the layout: Sources/Helpers is not under Shared/, Core/, Features/<Feature>/<Layer>, App/, Tests/, Scripts/Benchmarks/ or Scripts/Simulation/"
            ], "\(result)")
    }

    // MARK: The fixed file for each role

    @Test("a feature without one of its role files is caught, naming the file", arguments: Fixture.roleFiles)
    func missingRoleFile(layer: String, role: String) throws {
        var fixture = Fixture.clean()
        fixture.files["Features/Transfer/\(layer)/Transfer\(role).swift"] = nil
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        #expect(
            result.lines == [
                "Features/Transfer/\(layer)/Transfer\(role).swift:1 Transfer: missing: every feature keeps its Transfer\(role) in \(layer)/Transfer\(role).swift"
            ], "\(result)")
    }

    @Test("a role file that does not declare its type is caught")
    func roleFileWithoutItsType() throws {
        var fixture = Fixture.clean()
        fixture.files["Features/Account/Data/AccountMigrations.swift"] = "// AccountMigrations moved elsewhere\nlet steps = 1\n"
        let result = try fixture.check()
        #expect(result.status == 1, "\(result)")
        #expect(
            result.lines == [
                "Features/Account/Data/AccountMigrations.swift:1 Account: AccountMigrations.swift does not declare AccountMigrations (the type lives in the file named after it)"
            ], "\(result)")
    }

    @Test("on a scratch copy of the real repository, removing a feature's Migrations file fails the check")
    func realRepositoryCopyWithoutAFile() throws {
        let fileManager = FileManager.default
        let scratch = fileManager.temporaryDirectory.appendingPathComponent("moa-scratch-\(UUID().uuidString)")
        defer { try? fileManager.removeItem(at: scratch) }
        try fileManager.createDirectory(at: scratch, withIntermediateDirectories: true)
        for item in ["Package.swift", "App", "Core", "Shared", "Features", "Tests", "Scripts"] {
            try fileManager.copyItem(
                at: Scripts.repositoryRoot.appendingPathComponent(item),
                to: scratch.appendingPathComponent(item))
        }
        // The real package's description, read once from the repository (the copy has the same manifest).
        let describe = scratch.appendingPathComponent("describe.json")
        let described = try Scripts.runTool(
            "/usr/bin/env",
            [
                "swift", "package", "--package-path", Scripts.repositoryRoot.path,
                "--scratch-path", Scripts.repositoryRoot.appendingPathComponent(".build-describe").path,
                "describe", "--type", "json",
            ])
        #expect(described.status == 0, "\(described)")
        try Data(described.stdout.utf8).write(to: describe)

        let intact = try Scripts.run("check-architecture", ["--static", "--describe", describe.path, "--root", scratch.path])
        #expect(intact.status == 0, "\(intact)")

        try fileManager.removeItem(at: scratch.appendingPathComponent("Features/Inbox/Data/InboxMigrations.swift"))
        let broken = try Scripts.run("check-architecture", ["--static", "--describe", describe.path, "--root", scratch.path])
        #expect(broken.status == 1, "\(broken)")
        #expect(
            broken.lines == [
                "Features/Inbox/Data/InboxMigrations.swift:1 Inbox: missing: every feature keeps its InboxMigrations in Data/InboxMigrations.swift"
            ], "\(broken)")
    }
}
