// swift-tools-version: 6.1
//
// Moa — the one manifest of the monorepo.
//
// Read it top to bottom:
//   1. the external packages we depend on;
//   2. Shared and Core modules, one line each;
//   3. the features, one line each (`feature(...)` expands into seven targets);
//   4. the App and the cross-cutting test targets;
//   5. the `MOA_ONLY` switch, which keeps only one feature's closure (see Scripts/test-feature).
//
// The dependency rules of docs/design.md are checked by Scripts/check-architecture, not here.

import PackageDescription

import class Foundation.ProcessInfo

// MARK: - 1. External packages

let externalPackages: [String: Package.Dependency] = [
    "swift-argument-parser": .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    "GRDB.swift": .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    "swift-log": .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    "swift-crypto": .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    "SwiftCSV": .package(url: "https://github.com/swiftcsv/SwiftCSV", from: "0.10.0"),
    "FlyingFox": .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    "hummingbird": .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    "swift-openapi-runtime": .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
    "swift-http-types": .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    "swift-openapi-hummingbird": .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
    "async-http-client": .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    "swift-openapi-async-http-client": .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
    "postgres-nio": .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    "swift-nio": .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
    "swift-nio-extras": .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    "swift-nio-ssl": .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    "swift-prometheus": .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    "swift-metrics": .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    "swift-configuration": .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
    "swift-system": .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    "swift-service-lifecycle": .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
]

let argumentParser = Dep.product("ArgumentParser", package: "swift-argument-parser")
let grdb = Dep.product("GRDB", package: "GRDB.swift")
let logging = Dep.product("Logging", package: "swift-log")
let crypto = Dep.product("Crypto", package: "swift-crypto")
let cryptoExtras = Dep.product("CryptoExtras", package: "swift-crypto")
let swiftCSV = Dep.product("SwiftCSV", package: "SwiftCSV")
/// A small pure-Swift HTTP server, for tests that need a real server on 127.0.0.1.
let flyingFox = Dep.product("FlyingFox", package: "FlyingFox")
/// The HTTP server of `moa-server` (and its test client): only the server's closure builds it.
let hummingbird = Dep.product("Hummingbird", package: "hummingbird")
let hummingbirdTesting = Dep.product("HummingbirdTesting", package: "hummingbird")
let hummingbirdCore = Dep.product("HummingbirdCore", package: "hummingbird")
let nioCore = Dep.product("NIOCore", package: "swift-nio")
let nioHTTP1 = Dep.product("NIOHTTP1", package: "swift-nio")
let nioHTTPTypes = Dep.product("NIOHTTPTypes", package: "swift-nio-extras")
/// `moa-server --tls-cert/--tls-key`: TLS in the server itself (Hummingbird's TLS channel on swift-nio-ssl).
let hummingbirdTLS = Dep.product("HummingbirdTLS", package: "hummingbird")
let nioSSL = Dep.product("NIOSSL", package: "swift-nio-ssl")
/// What the code generated from docs/api/openapi.yaml needs (Scripts/generate-api): the runtime for
/// the types, and the Hummingbird transport for the server.
let openAPIRuntime = Dep.product("OpenAPIRuntime", package: "swift-openapi-runtime")
let openAPIHummingbird = Dep.product("OpenAPIHummingbird", package: "swift-openapi-hummingbird")
let httpTypes = Dep.product("HTTPTypes", package: "swift-http-types")
/// The client's transport: AsyncHTTPClient on NIO. `moa` pays for NIO and NIOSSL in its closure
/// because Foundation's URLSession on Linux spins a core while it waits for an answer and takes no
/// trust roots but the system's (docs/architecture.md, "moa's HTTP client", measures the cost).
let openAPIAsyncHTTPClient = Dep.product("OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client")
let asyncHTTPClient = Dep.product("AsyncHTTPClient", package: "async-http-client")
let nioPosix = Dep.product("NIOPosix", package: "swift-nio")
/// PostgreSQL for `moa-server --database postgres://…`: only the server's closure (and the store
/// contract tests) build it.
let postgresNIO = Dep.product("PostgresNIO", package: "postgres-nio")
/// `moa-server`'s metrics: swift-metrics' API, exported by swift-prometheus at `/metrics`.
let prometheus = Dep.product("Prometheus", package: "swift-prometheus")
let metrics = Dep.product("Metrics", package: "swift-metrics")
/// `moa-server`'s settings from flags, the environment and a JSON file (swift-configuration; its
/// file paths are swift-system's `FilePath`).
let configuration = Dep.product("Configuration", package: "swift-configuration")
let systemPackage = Dep.product("SystemPackage", package: "swift-system")
/// `moa-server`'s services (the API, the metrics port) started and stopped together on a signal.
let serviceLifecycle = Dep.product("ServiceLifecycle", package: "swift-service-lifecycle")

// MARK: - 2. Shared and Core

/// Code generated from docs/api/openapi.yaml (Scripts/generate-api): its warnings (unused `public
/// import`s that Swift 6.4's @diagnose would silence) are not ours.
let generatedCode: [SwiftSetting] = [.unsafeFlags(["-suppress-warnings"])]

/// Small value types with no dependencies at all.
let shared: [Module] = [
    .library("Money", path: "Shared/Money"),
    .library("SharedKit", path: "Shared/SharedKit"),
]

/// Infrastructure every feature may use (which layer may use which module: Scripts/check-architecture).
let core: [Module] = [
    .library("Registry", path: "Core/Registry", deps: ["SharedKit"]),
    .library("ViewModelKit", path: "Core/ViewModelKit", deps: ["Money", "SharedKit"]),
    .library("DesignSystem", path: "Core/DesignSystem", deps: ["Money", "SharedKit"]),
    .library("CommandKit", path: "Core/CommandKit", deps: ["DesignSystem", "SharedKit", argumentParser]),
    .library("Persistence", path: "Core/Persistence", deps: ["Registry"]),
    .library("Storage", path: "Core/Storage", deps: ["SharedKit", "Registry", "Persistence", grdb]),
    .library("Networking", path: "Core/Networking", deps: ["SharedKit", logging]),
    // PostgreSQL's plumbing for the served features' stores: the pool (fast to fail and to come
    // back), the transaction behind `Persistence.Transaction`, the writers lock and the migration
    // runner. Only the stores on PostgreSQL and the server depend on it, so no other closure builds
    // PostgresNIO.
    .library("PostgresStorage", path: "Core/PostgresStorage", deps: ["Persistence", "Registry", "SharedKit", postgresNIO, logging]),
    // What tests (and the tools that replay a seed) share: the seeded generator, log capture. Only
    // tests, Examples and tools may use it (Scripts/check-architecture: Core "testing").
    .library("TestSupport", path: "Core/TestSupport", deps: ["SharedKit", logging]),
    // A feature's generated server and client joined in one process (no socket, no NIO): the
    // served tests of each feature (Tests/<F>ServedTests) run its handlers and remote use cases together.
    .library("APITesting", path: "Core/APITesting", deps: ["APIClient", "APIServing", "SharedKit", openAPIRuntime, httpTypes]),
    // The server's own operation of docs/api/openapi.yaml (tag Health, `GET /healthz`), generated by
    // Scripts/generate-api like each served feature's <F>API: its types, route and client.
    .library("OperationsAPI", path: "Core/OperationsAPI", deps: [openAPIRuntime, httpTypes], swiftSettings: generatedCode),
    // What both ends of docs/api/openapi.yaml agree on beyond the generated code: how a date-time
    // is written and read (the server's handlers and `moa`'s clients).
    .library("APIWire", path: "Core/APIWire", deps: ["SharedKit", openAPIRuntime]),
    // What every served feature's handlers share (no Hummingbird, no NIO): the problem document and
    // the mapping of typed errors to it, the request being served, the transport bounds of the
    // document, the timing of answers that must not tell, and the pool that hashes passwords.
    .library("APIServing", path: "Core/APIServing", deps: ["APIWire", "SharedKit", "Registry", openAPIRuntime, httpTypes, logging]),
    // moa-server's HTTP plumbing on Hummingbird, shared by every route: the request context and
    // client address, the request log, problem documents for every error, the body limit and
    // duplicate keys, 405 with Allow, the connection ceiling and header bounds, the log format.
    .library(
        "HTTPServing", path: "Core/HTTPServing",
        deps: [
            "APIServing", "SharedKit", hummingbird, hummingbirdCore, nioCore, nioHTTP1, nioHTTPTypes, openAPIRuntime, openAPIHummingbird,
            httpTypes, logging,
        ]),
    // What every served feature's remote implementation shares: the server's address and how `moa`
    // chooses it, the call with its deadline and its typed errors, the problem decoding — on any
    // transport, so a feature's remote use cases and their tests build no NIO.
    .library("APIClient", path: "Core/APIClient", deps: ["APIWire", "SharedKit", "Registry", "OperationsAPI", openAPIRuntime, httpTypes]),
    // `moa`'s transport: AsyncHTTPClient on NIO, what its errors mean to a person, the CA file a
    // server is trusted by, and which server a command uses (`moa`'s closure pays for NIO, see
    // docs/architecture.md, "moa's HTTP client").
    .library(
        "APITransport", path: "Core/APITransport",
        deps: ["APIClient", "SharedKit", "Storage", openAPIAsyncHTTPClient, asyncHTTPClient, nioCore, nioPosix, nioSSL]),
]

// MARK: - 3. Features

/// One entry per feature: for each of its seven targets (Interface, Domain, Data, Feature, Testing,
/// Example, tests), the modules and products its files import — besides Foundation and the
/// toolchain's — and nothing more. Scripts/check-architecture checks both ways (an import not
/// declared, a declaration no file imports), so each target's closure is what its code uses, and
/// checks every edge against the dependency rules.
let features: [FeatureSpec] = [
    .feature(
        "Auth",
        interface: ["SharedKit", "Registry", "Persistence"],
        domain: ["AuthInterface", "InboxInterface", "SharedKit", "Registry", "Persistence"],
        data: ["AuthDomain", "AuthInterface", "Storage", "SharedKit", "Registry", "Persistence", grdb, crypto, cryptoExtras],
        feature: ["AuthDomain", "AuthInterface", "SharedKit", "Registry", "ViewModelKit", "DesignSystem", "CommandKit", argumentParser],
        testing: ["AuthInterface", "SharedKit", "Registry"],
        example: [
            "AuthFeature", "AuthData", "AuthDomain", "AuthInterface", "InboxTesting", "SharedKit", "Registry", "Storage",
            "DesignSystem",
        ],
        tests: [
            "AuthInterface", "AuthDomain", "AuthData", "AuthFeature", "InboxInterface", "InboxTesting", "SharedKit", "Registry",
            "Persistence", "Storage", "DesignSystem", "CommandKit", grdb,
        ],
        postgres: ["AuthDomain", "AuthInterface", "PostgresStorage", "SharedKit", "Registry", "Persistence", postgresNIO],
        server: ["AuthAPI", "AuthDomain", "AuthInterface", "APIServing", "SharedKit", openAPIRuntime, httpTypes, logging, "Registry"],
        remote: ["AuthAPI", "AuthDomain", "AuthInterface", "APIClient", "SharedKit", openAPIRuntime, httpTypes, "Persistence", "Registry"],
        servedTests: [
            "AuthServer", "AuthRemote", "AuthData", "AuthDomain", "AuthInterface", "InboxTesting", "APIClient", "APIServing",
            "APITesting", "Persistence", "Registry", "SharedKit", "Storage",
        ]),
    .feature(
        "Settings",
        interface: ["Money", "SharedKit", "Registry"],
        domain: ["SettingsInterface", "AuthInterface", "Money", "SharedKit", "Registry", "Persistence"],
        data: ["SettingsDomain", "SettingsInterface", "Storage", "SharedKit", "Registry", "Persistence", grdb],
        feature: [
            "SettingsDomain", "SettingsInterface", "Money", "SharedKit", "Registry", "ViewModelKit", "DesignSystem", "CommandKit",
            argumentParser,
        ],
        testing: ["SettingsInterface", "SharedKit", "Registry"],
        example: [
            "SettingsFeature", "SettingsData", "SettingsDomain", "SettingsInterface", "AuthTesting", "SharedKit", "Registry", "Storage",
            "CommandKit",
        ],
        tests: [
            "SettingsInterface", "SettingsDomain", "SettingsData", "SettingsFeature", "SettingsTesting", "AuthInterface", "AuthTesting",
            "Money", "SharedKit", "Registry", "Persistence", "Storage", "DesignSystem", "CommandKit", grdb,
        ],
        postgres: ["SettingsDomain", "PostgresStorage", "SharedKit", "Registry", "Persistence", postgresNIO],
        api: ["SettingsDomain"],
        server: ["SettingsAPI", "SettingsDomain", "AuthInterface", "APIServing", "Money", openAPIRuntime, "Registry"],
        remote: ["SettingsAPI", "SettingsDomain", "APIClient", "SharedKit", "Money", "Registry", "SettingsInterface"],
        servedTests: [
            "SettingsServer", "SettingsRemote", "SettingsData", "SettingsDomain", "AuthInterface", "AuthTesting", "APIClient",
            "APITesting", "SharedKit", "Storage", "CommandKit", "Money", "SettingsAPI", "SettingsInterface",
        ]),
    .feature(
        "Account",
        interface: ["Money", "SharedKit", "Registry", "Persistence"],
        domain: ["AccountInterface", "AuthInterface", "Money", "SharedKit", "Registry", "Persistence"],
        data: ["AccountDomain", "AccountInterface", "Storage", "Money", "SharedKit", "Registry", "Persistence", grdb],
        feature: [
            "AccountDomain", "AccountInterface", "AuthInterface", "TransferInterface", "Money", "SharedKit", "Registry", "ViewModelKit",
            "DesignSystem", "CommandKit", argumentParser,
        ],
        testing: ["AccountInterface", "Money", "SharedKit", "Persistence", "Registry"],
        example: [
            "AccountFeature", "AccountData", "AccountDomain", "AuthTesting", "TransferTesting",
            "SharedKit", "Registry", "Storage", "CommandKit",
        ],
        tests: [
            "AccountInterface", "AccountDomain", "AccountData", "AccountFeature", "AuthInterface", "TransferInterface", "AuthTesting",
            "TransferTesting", "Money", "SharedKit", "Registry", "Persistence", "Storage", "ViewModelKit", "DesignSystem", "CommandKit",
            grdb,
        ],
        postgres: ["AccountDomain", "AccountInterface", "PostgresStorage", "Money", "SharedKit", "Registry", "Persistence", postgresNIO],
        api: ["AccountDomain"],
        server: ["AccountAPI", "AccountDomain", "AccountInterface", "APIServing", "SharedKit", openAPIRuntime, "Registry"],
        remote: ["AccountAPI", "AccountDomain", "AccountInterface", "AuthInterface", "APIClient", "SharedKit", "Registry"],
        servedTests: [
            "AccountServer", "AccountRemote", "AccountData", "AccountDomain", "AccountInterface", "AuthInterface", "AuthTesting",
            "APIClient", "APIServing", "APITesting", "CommandKit", "Money", "Registry", "SharedKit", "Storage", openAPIRuntime, httpTypes,
        ]),
    .feature(
        "Transfer",
        interface: ["Money", "SharedKit", "Registry"],
        domain: [
            "TransferInterface", "AccountInterface", "SettingsInterface", "AuthInterface", "InboxInterface", "Money", "SharedKit",
            "Registry", "Persistence",
        ],
        data: ["TransferDomain", "TransferInterface", "Storage", "Money", "SharedKit", "Registry", "Persistence", grdb],
        feature: [
            "TransferDomain", "TransferInterface", "AccountInterface", "SettingsInterface", "Money", "SharedKit", "Registry",
            "ViewModelKit", "DesignSystem", "CommandKit", argumentParser, swiftCSV,
        ],
        testing: ["TransferInterface", "Money", "SharedKit", "Registry"],
        example: [
            "TransferFeature", "TransferData", "AccountInterface", "AccountTesting",
            "SettingsTesting", "AuthTesting", "InboxTesting", "Money", "SharedKit", "Registry", "Storage", "CommandKit", "DesignSystem",
            "Persistence",
        ],
        tests: [
            "TransferInterface", "TransferDomain", "TransferData", "TransferFeature", "TransferTesting", "AccountInterface",
            "SettingsInterface", "AuthInterface", "InboxInterface", "AccountTesting", "SettingsTesting", "AuthTesting", "InboxTesting",
            "Money", "SharedKit", "Registry", "Persistence", "Storage", "DesignSystem", "CommandKit", grdb,
        ],
        postgres: ["TransferDomain", "TransferInterface", "PostgresStorage", "Money", "SharedKit", "Registry", "Persistence", postgresNIO],
        api: ["TransferInterface"],
        server: ["TransferAPI", "TransferDomain", "TransferInterface", "APIServing", "SharedKit", openAPIRuntime, "Registry"],
        remote: ["TransferAPI", "TransferDomain", "TransferInterface", "APIClient", "SharedKit", "Registry"],
        servedTests: [
            "TransferServer", "TransferRemote", "TransferDomain", "TransferInterface", "TransferTesting", "APIClient", "APIServing",
            "APITesting", "CommandKit", "DesignSystem", "Money", "SharedKit", openAPIRuntime, httpTypes,
        ]),
    .feature(
        "Search",
        interface: ["SharedKit", "Registry"],
        domain: ["SearchInterface", "SettingsInterface", "ArchiveInterface", "SharedKit", "Registry"],
        data: ["SearchDomain", "SearchInterface", "Storage", "Networking", "SharedKit", "Registry", grdb],
        feature: [
            "SearchDomain", "SearchInterface", "SettingsInterface", "ArchiveInterface", "SharedKit", "Registry", "ViewModelKit",
            "DesignSystem", "CommandKit", argumentParser,
        ],
        testing: ["SearchInterface", "SharedKit", "Registry"],
        example: [
            "SearchFeature", "SearchData", "SearchDomain", "ArchiveInterface", "SettingsTesting", "ArchiveTesting",
            "SharedKit", "Registry", "Storage", "CommandKit", "Networking",
        ],
        tests: [
            "SearchInterface", "SearchDomain", "SearchData", "SearchFeature", "SettingsInterface", "ArchiveInterface", "SettingsTesting",
            "ArchiveTesting", "SharedKit", "Registry", "Storage", "DesignSystem", "CommandKit", "Networking", flyingFox, logging,
            "TestSupport",
        ]),
    .feature(
        "Archive",
        interface: ["SharedKit", "Registry"],
        domain: ["ArchiveInterface", "AuthInterface", "SharedKit", "Registry", "Persistence"],
        data: ["ArchiveDomain", "ArchiveInterface", "Storage", "Networking", "SharedKit", "Registry", "Persistence", grdb],
        feature: [
            "ArchiveDomain", "ArchiveInterface", "AuthInterface", "SettingsInterface", "SharedKit", "Registry", "ViewModelKit",
            "DesignSystem", "CommandKit", argumentParser,
        ],
        testing: ["ArchiveInterface", "SharedKit", "Registry"],
        example: [
            "ArchiveFeature", "ArchiveData", "ArchiveDomain", "ArchiveInterface", "SettingsInterface", "AuthTesting",
            "SettingsTesting", "SharedKit", "Registry", "Storage", "CommandKit",
        ],
        tests: [
            "ArchiveInterface", "ArchiveDomain", "ArchiveData", "ArchiveFeature", "ArchiveTesting", "AuthInterface", "SettingsInterface",
            "AuthTesting", "SettingsTesting", "SharedKit", "Registry", "Persistence", "Storage", "DesignSystem", "CommandKit", "Networking",
            argumentParser, grdb, swiftCSV,
        ],
        postgres: ["ArchiveDomain", "ArchiveInterface", "PostgresStorage", "SharedKit", "Registry", "Persistence", postgresNIO],
        api: ["ArchiveDomain"],
        server: [
            "ArchiveAPI", "ArchiveDomain", "ArchiveInterface", "AuthInterface", "APIServing", "SharedKit", openAPIRuntime, "Registry",
        ],
        remote: ["ArchiveAPI", "ArchiveDomain", "ArchiveInterface", "APIClient", "SharedKit", "Registry"],
        servedTests: [
            "ArchiveServer", "ArchiveRemote", "ArchiveAPI", "ArchiveData", "ArchiveDomain", "ArchiveInterface", "AuthInterface",
            "APIServing",
            "AuthTesting", "APIClient", "APITesting", "SharedKit", "Storage", "CommandKit",
        ]),
    .feature(
        "Inbox",
        interface: ["SharedKit", "Registry", "Persistence"],
        domain: ["InboxInterface", "AuthInterface", "SharedKit", "Registry", "Persistence"],
        data: ["InboxDomain", "InboxInterface", "Storage", "SharedKit", "Registry", "Persistence", grdb],
        feature: [
            "InboxDomain", "InboxInterface", "AuthInterface", "SharedKit", "Registry", "ViewModelKit", "DesignSystem", "CommandKit",
            argumentParser,
        ],
        testing: ["InboxInterface", "SharedKit", "Persistence", "Registry"],
        example: [
            "InboxFeature", "InboxData", "InboxDomain", "InboxInterface", "AuthTesting", "SharedKit", "Registry",
            "Storage", "CommandKit",
        ],
        tests: [
            "InboxInterface", "InboxDomain", "InboxData", "InboxFeature", "InboxTesting", "AuthInterface", "AuthTesting", "SharedKit",
            "Registry", "Persistence", "Storage", "DesignSystem", "CommandKit",
        ],
        postgres: ["InboxDomain", "InboxInterface", "PostgresStorage", "SharedKit", "Registry", "Persistence", postgresNIO],
        api: ["InboxDomain"],
        server: ["InboxAPI", "InboxDomain", "APIServing", openAPIRuntime, "Registry"],
        remote: ["InboxAPI", "InboxDomain", "InboxInterface", "APIClient", "SharedKit", "Registry"],
        servedTests: [
            "InboxServer", "InboxRemote", "InboxData", "InboxDomain", "InboxInterface", "AuthInterface", "AuthTesting", "APIClient",
            "APITesting", "CommandKit", "Registry", "SharedKit", "Storage",
        ]),
    // Scripts/new-feature inserts new features above this line.
]

// MARK: - 4. App, benchmarks and cross-cutting tests

let app: [Module] = [
    .library(
        "MoaApp", path: "App/MoaApp",
        deps: [
            "Registry", "CommandKit", "DesignSystem", "Persistence", "Storage", "Networking", "SharedKit", "APIClient", "APITransport",
            argumentParser,
            logging, "AuthInterface", "SettingsInterface", "SettingsDomain", "AccountDomain", "TransferDomain", "ArchiveDomain",
            "InboxDomain",
        ]
            + features.flatMap { f in [f.data, f.feature].map(Dep.module) }
            // `moa` as a client of `moa-server`: each served feature's remote use cases (RemoteComposition).
            + features.filter(\.isServed).map { Dep.module($0.remote) }),
    .executable("moa", path: "App/moa", deps: ["MoaApp"]),
    // The served features' stores on PostgreSQL gathered for `moa-server --database postgres://…`:
    // each feature's <F>Postgres target holds its own, behind the same Domain protocols as its SQLite
    // stores in its Data target. Only the server (and the store contract tests) see them, so no
    // other closure builds PostgresNIO.
    .library(
        "MoaPostgres", path: "App/MoaPostgres",
        deps: ["Registry", "Persistence", "PostgresStorage"]
            + features.filter { $0.imports["Postgres"] != nil }.map { Dep.module($0.postgres) }),
    // The second composition root: the bank over HTTP, for `moa` clients on other machines.
    .library(
        "MoaServer", path: "App/MoaServer",
        deps: [
            "Registry", "Persistence", "Storage", "PostgresStorage", "SharedKit", "OperationsAPI", "APIServing", "HTTPServing",
            "MoaPostgres",
            argumentParser, logging,
            hummingbird,
            hummingbirdCore, openAPIRuntime, openAPIHummingbird, httpTypes, prometheus, metrics, serviceLifecycle,
            hummingbirdTLS, nioSSL, configuration, systemPackage,
        ]
            + ["AuthInterface", "AuthDomain", "SettingsInterface", "SettingsDomain", "AccountDomain", "TransferInterface"]
            + ["TransferDomain", "InboxDomain", "ArchiveDomain"]
            // Each served feature's stores on SQLite and its handlers of its part of docs/api/openapi.yaml.
            + features.filter(\.isServed).flatMap { [Dep.module($0.data), Dep.module($0.server)] }),
    .executable("moa-server", path: "App/moa-server", deps: ["MoaServer"]),
]

/// Benchmark executables (`Scripts/bench-*` build and run them in release mode). Not tests: they
/// print ratios measured in one run, and assert nothing about time.
let benchmarks: [Module] = [
    // Scripts/Benchmarks/<Name>: added with the benchmark that needs it.
    .executable(
        "BenchLedger", path: "Scripts/Benchmarks/BenchLedger",
        deps: ["AccountData", "AccountDomain", "AccountInterface", "Registry", "SharedKit", "Storage", grdb]),
    .executable(
        "BenchArchive", path: "Scripts/Benchmarks/BenchArchive",
        deps: ["ArchiveData", "ArchiveDomain", "ArchiveInterface", "Storage", "SharedKit", "TestSupport"]),
    .executable("BenchCache", path: "Scripts/Benchmarks/BenchCache", deps: ["SearchData", "TestSupport"]),
]

/// The ledger simulation (`Scripts/simulate`): the real Account, Transfer, Settings and Inbox use cases
/// on a real database — their SQLite stores, or their PostgreSQL stores — driven by a seeded workload
/// with injected faults; SimulationTests shows that it catches a broken posting rule on both.
let simulation: [Module] = [
    .library(
        "LedgerSimulation", path: "Scripts/Simulation/LedgerSimulation",
        deps: [
            "AccountData", "AccountDomain", "AccountInterface", "TransferData", "TransferDomain", "TransferInterface",
            "SettingsData", "SettingsDomain", "SettingsInterface", "InboxData", "InboxDomain", "InboxInterface", "AuthInterface",
            "Registry", "Persistence", "Storage", "SharedKit", "Money", "TestSupport", grdb,
            "AccountPostgres", "TransferPostgres", "SettingsPostgres", "InboxPostgres", "PostgresStorage", postgresNIO, logging,
        ]),
    .executable("MoaSimulate", path: "Scripts/Simulation/MoaSimulate", deps: ["LedgerSimulation", argumentParser]),
]

/// The fuzz targets of every parser of outside input (Scripts/fuzz builds them with libFuzzer and
/// AddressSanitizer). Declared only under `MOA_FUZZ=1`: without libFuzzer they have no `main`.
let fuzzTargets: [Module] = [
    .library("FuzzDriver", path: "Scripts/Fuzz/FuzzDriver"),
    .executable(
        "MoaFuzz", path: "Scripts/Fuzz/MoaFuzz",
        deps: [
            "FuzzDriver", "Money", "SharedKit", "DesignSystem", "Networking", "AccountInterface", "AuthDomain", "TransferDomain",
            "TransferFeature",
            "ArchiveDomain", "ArchiveData", "SearchDomain", "SearchData", "SettingsDomain",
        ],
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
]
let fuzzing = ProcessInfo.processInfo.environment["MOA_FUZZ"].map { !$0.isEmpty } ?? false

let crossCuttingTests: [Module] = [
    .test(
        "CoreTests", path: "Tests/CoreTests",
        deps: [
            "Money", "SharedKit", "Registry", "ViewModelKit", "DesignSystem", "CommandKit", "Persistence", "Storage", "Networking",
            "TestSupport",
            grdb, logging,
        ]),
    .test("ArchitectureTests", path: "Tests/ArchitectureTests"),
    .test("AppTests", path: "Tests/AppTests", deps: ["MoaApp", "APIClient", "APIWire", "Registry", "Storage", "DesignSystem", "SharedKit", argumentParser, logging], alsoBuilds: ["moa"]),
    .test("SimulationTests", path: "Tests/SimulationTests", deps: ["LedgerSimulation"]),
    .test(
        "ServerTests", path: "Tests/ServerTests",
        deps: [
            "MoaServer", "MoaPostgres", "HTTPServing", "APIClient", "APITransport", "AuthServer", "TransferRemote", "TestSupport",
            "Storage", "SharedKit", hummingbird, hummingbirdTesting, logging, httpTypes, asyncHTTPClient,
            nioCore, nioSSL,
        ],
        alsoBuilds: ["moa-server", "moa"]),
    // One contract suite per store, run on both engines: the features' SQLite stores and MoaPostgres'.
    .test(
        "StoreContractTests", path: "Tests/StoreContractTests",
        deps: ["MoaPostgres", "PostgresStorage", "Storage", "Persistence", "Registry", "SharedKit", "Money", "AuthTesting", logging, postgresNIO]
            + ["AuthInterface", "AuthDomain", "AuthData", "SettingsDomain", "SettingsData", "AccountInterface", "AccountDomain"]
            + ["AccountData", "TransferInterface", "TransferDomain", "TransferData", "InboxInterface", "InboxDomain", "InboxData"]
            + ["ArchiveInterface", "ArchiveDomain", "ArchiveData"]
            // Scripts/new-feature --served inserts a served feature's store contract dependencies above this line.
    ),
]

// MARK: - Helpers (the only place that knows how a feature becomes targets)

enum Dep {
    case module(String)
    case product(String, package: String)

    var targetDependency: Target.Dependency {
        switch self {
        case .module(let name): return .target(name: name)
        case .product(let name, let package): return .product(name: name, package: package)
        }
    }

    var moduleName: String? {
        if case .module(let name) = self { return name }
        return nil
    }

    var packageName: String? {
        if case .product(_, let package) = self { return package }
        return nil
    }
}

extension Dep: ExpressibleByStringLiteral {
    init(stringLiteral value: String) { self = .module(value) }
}

/// Every executable and test bundle links with lld on Linux (the toolchain ships it). Linking is the
/// one step every incremental rebuild of `moa` pays however small the edit: lld links `moa` in about
/// half the time of the default gold (docs/build-isolation.md). Scripts/bench-build gives its
/// monolithic control the same linker, so the modular/monolith ratio compares like with like.
let linker: [LinkerSetting] = [.unsafeFlags(["-use-ld=lld"], .when(platforms: [.linux]))]

struct Module {
    enum Kind { case library, executable, test }
    let name: String
    let kind: Kind
    let path: String
    let deps: [Dep]
    /// Executables a test runs as a process: built before the test, not linked into it.
    let alsoBuilds: [String]
    var swiftSettings: [SwiftSetting] = []

    static func library(_ name: String, path: String, deps: [Dep] = [], swiftSettings: [SwiftSetting] = []) -> Module {
        Module(name: name, kind: .library, path: path, deps: deps, alsoBuilds: [], swiftSettings: swiftSettings)
    }
    static func executable(_ name: String, path: String, deps: [Dep] = [], swiftSettings: [SwiftSetting] = []) -> Module {
        Module(name: name, kind: .executable, path: path, deps: deps, alsoBuilds: [], swiftSettings: swiftSettings)
    }
    static func test(_ name: String, path: String, deps: [Dep] = [], alsoBuilds: [String] = []) -> Module {
        Module(name: name, kind: .test, path: path, deps: deps, alsoBuilds: alsoBuilds)
    }

    var target: Target {
        let dependencies = deps.map(\.targetDependency)
        switch kind {
        case .library: return .target(name: name, dependencies: dependencies, path: path, swiftSettings: swiftSettings)
        case .executable:
            return .executableTarget(
                name: name, dependencies: dependencies, path: path, swiftSettings: swiftSettings, linkerSettings: linker)
        case .test: return .testTarget(name: name, dependencies: dependencies, path: path, linkerSettings: linker)
        }
    }
}

struct FeatureSpec {
    let name: String
    let imports: [String: [Dep]]

    /// A feature, and what each of its targets imports (see `features`). A served feature adds:
    /// - `postgres`: its stores on PostgreSQL (`Features/<F>/Postgres`, target `<F>Postgres`);
    /// - `api`: what its generated API imports besides the OpenAPI runtime: its Interface or Domain,
    ///   where a record the API and `moa … --json` both show is written once (`x-moa-swift-type`);
    /// - `server`: its HTTP handlers (`Features/<F>/Server`, `<F>Server`), implementing the
    ///   operations of docs/api/openapi.yaml tagged `<F>`, generated into `Features/<F>/API`
    ///   (`<F>API`, by Scripts/generate-api);
    /// - `remote`: its use cases as a client of `moa-server` (`Features/<F>/Remote`, `<F>Remote`),
    ///   on the same generated API;
    /// - `servedTests`: the tests of those together (`Tests/<F>ServedTests`), in the feature's closure
    ///   plus what they need (`Scripts/test-feature <F> --served`).
    /// Only the composition roots and cross-cutting tests depend on these: no Example and no feature
    /// test does, so none builds PostgresNIO, Hummingbird or NIO.
    static func feature(
        _ name: String, interface: [Dep], domain: [Dep], data: [Dep], feature: [Dep], testing: [Dep], example: [Dep], tests: [Dep],
        postgres: [Dep]? = nil, api: [Dep] = [], server: [Dep]? = nil, remote: [Dep]? = nil, servedTests: [Dep]? = nil
    ) -> FeatureSpec {
        var imports: [String: [Dep]] = [
            "Interface": interface, "Domain": domain, "Data": data, "Feature": feature, "Testing": testing, "Example": example,
            "Tests": tests,
        ]
        imports["Postgres"] = postgres
        imports["Server"] = server
        imports["Remote"] = remote
        imports["ServedTests"] = servedTests
        if server != nil || remote != nil { imports["API"] = api + [openAPIRuntime, httpTypes] }
        return FeatureSpec(name: name, imports: imports)
    }

    var interface: String { name + "Interface" }
    var domain: String { name + "Domain" }
    var data: String { name + "Data" }
    var feature: String { name + "Feature" }
    var testing: String { name + "Testing" }
    var example: String { name + "Example" }
    var tests: String { name + "Tests" }
    var postgres: String { name + "Postgres" }
    var server: String { name + "Server" }
    var remote: String { name + "Remote" }
    var servedTests: String { name + "ServedTests" }
    var isServed: Bool { imports["Server"] != nil }

    var modules: [Module] {
        let root = "Features/\(name)"
        var modules: [Module] = [
            .library(interface, path: "\(root)/Interface", deps: imports["Interface"] ?? []),
            .library(domain, path: "\(root)/Domain", deps: imports["Domain"] ?? []),
            .library(data, path: "\(root)/Data", deps: imports["Data"] ?? []),
            .library(feature, path: "\(root)/Feature", deps: imports["Feature"] ?? []),
            .library(testing, path: "\(root)/Testing", deps: imports["Testing"] ?? []),
            .executable(example, path: "\(root)/Example", deps: imports["Example"] ?? []),
            .test(tests, path: "Tests/\(tests)", deps: imports["Tests"] ?? []),
        ]
        if let deps = imports["Postgres"] { modules.append(.library(postgres, path: "\(root)/Postgres", deps: deps)) }
        if let deps = imports["API"] {
            modules.append(.library(name + "API", path: "\(root)/API", deps: deps, swiftSettings: generatedCode))
        }
        if let deps = imports["Server"] { modules.append(.library(server, path: "\(root)/Server", deps: deps)) }
        if let deps = imports["Remote"] { modules.append(.library(remote, path: "\(root)/Remote", deps: deps)) }
        if let deps = imports["ServedTests"] { modules.append(.test(servedTests, path: "Tests/\(servedTests)", deps: deps)) }
        return modules
    }
}

// MARK: - 5. Assemble (and the MOA_ONLY switch)

let allModules =
    shared + core + features.flatMap(\.modules) + app + benchmarks + simulation + crossCuttingTests + (fuzzing ? fuzzTargets : [])
let byName = Dictionary(uniqueKeysWithValues: allModules.map { ($0.name, $0) })

/// `MOA_ONLY=<Feature>` keeps that feature's tests and Example with their dependency closure;
/// `MOA_ONLY=Core` keeps Shared, Core and their tests; several names (`MOA_ONLY=Core,Account`) keep
/// the union; `MOA_FUZZ=1` keeps the fuzz targets. Unset:
/// everything but the fuzz targets.
func selectedModules() -> [Module] {
    if fuzzing { return closure(of: fuzzTargets.map(\.name)) }
    guard let only = ProcessInfo.processInfo.environment["MOA_ONLY"], !only.isEmpty else { return allModules }
    // Several names, comma-separated, keep the union of their closures (MOA_ONLY=Core,Account).
    let roots = only.split(separator: ",").flatMap { part -> [String] in
        let name = String(part.filter { $0 != " " })
        if name == "Core" { return ["CoreTests"] }
        if let spec = features.first(where: { $0.name == name }) { return [spec.tests, spec.example] }
        return [name] // any target name, e.g. MOA_ONLY=MoaApp
    }
    return closure(of: roots)
}

/// `roots` with everything they depend on (and the executables their tests run).
func closure(of roots: [String]) -> [Module] {
    var keep = Set<String>()
    var stack = roots
    while let name = stack.popLast() {
        guard let module = byName[name], keep.insert(name).inserted else { continue }
        stack += module.deps.compactMap(\.moduleName) + module.alsoBuilds
    }
    return allModules.filter { keep.contains($0.name) }
}

let selected = selectedModules()
let usedPackages = Set(selected.flatMap { $0.deps.compactMap(\.packageName) })

let package = Package(
    name: "Moa",
    platforms: [.macOS(.v15)],
    products: selected.compactMap { module -> Product? in
        switch module.kind {
        case .executable: return .executable(name: module.name, targets: [module.name])
        case .library, .test: return nil
        }
    },
    dependencies: externalPackages.filter { usedPackages.contains($0.key) }.sorted { $0.key < $1.key }.map(\.value),
    targets: selected.map(\.target)
)
