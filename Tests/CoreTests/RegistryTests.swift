import Registry
import Synchronization
import Testing

// Keys as features declare them; `expectedProvider` is normally derived from the declaring module.
private protocol Greeter: Sendable { func greet() -> String }
private protocol Clock: Sendable { var now: Int { get } }
private protocol Limits: Sendable { var perTransfer: Int { get } }

private enum GreeterKey: ServiceKey { typealias Service = any Greeter }
private enum ClockKey: ServiceKey { typealias Service = any Clock }
private enum LimitsKey: ServiceKey {
    typealias Service = any Limits
    static var expectedProvider: String { "Settings" }
}
private enum AKey: ServiceKey { typealias Service = Int }
private enum BKey: ServiceKey { typealias Service = Int }

private struct FixedClock: Clock { let now: Int }
private struct DefaultLimits: Limits { let perTransfer: Int }
private final class HelloGreeter: Greeter {
    let clock: any Clock
    let limits: any Limits
    init(clock: any Clock, limits: any Limits) {
        self.clock = clock
        self.limits = limits
    }
    func greet() -> String { "hello at \(clock.now), limit \(limits.perTransfer)" }
}

private let coreModule = ModuleOf("Core", [.singleton(ClockKey.self) { FixedClock(now: 1) }])
private let settingsModule = ModuleOf("Settings", [.singleton(LimitsKey.self) { DefaultLimits(perTransfer: 5_000_000) }])
private let greeterModule = ModuleOf(
    "Greeting",
    [
        .singleton(GreeterKey.self, requires: ClockKey.self, LimitsKey.self) { clock, limits in
            HelloGreeter(clock: clock, limits: limits)
        }
    ])

@Suite("Typed registry")
struct RegistryTests {
    @Test func resolvesTheRootWithItsRequirementsBound() throws {
        let registry = try RegistryBuilder(modules: [coreModule, settingsModule, greeterModule]).validate(root: GreeterKey.self)
        #expect(registry.resolve().greet() == "hello at 1, limit 5000000")
    }

    @Test func aModuleDeclaresWhatItProvidesAndRequires() {
        #expect(greeterModule.provides.map(\.name) == ["GreeterKey"])
        #expect(greeterModule.requires.map(\.name) == ["ClockKey", "LimitsKey"])
    }

    @Test func missingProviderNamesInterfaceRequirerAndExpectedProvider() {
        #expect {
            try RegistryBuilder(modules: [coreModule, greeterModule]).validate(root: GreeterKey.self)
        } throws: { error in
            let problems = (error as? RegistryProblems)?.problems ?? []
            guard problems.count == 1, case .missing(let key, let requirer, let forKey) = problems[0] else { return false }
            let text = problems[0].description
            return key.name == "LimitsKey" && requirer == "Greeting" && forKey?.name == "GreeterKey"
                && text.contains("(Limits)") && text.contains("required by Greeting") && text.contains("expected from Settings")
        }
    }

    @Test func everyProblemIsReportedAtOnce() {
        let cyclic = ModuleOf(
            "Loop",
            [
                .singleton(AKey.self, requires: BKey.self) { $0 + 1 },
                .singleton(BKey.self, requires: AKey.self) { $0 + 1 },
            ])
        let duplicateClock = ModuleOf("Account", [.singleton(ClockKey.self) { FixedClock(now: 2) }])
        #expect {
            try RegistryBuilder(modules: [coreModule, duplicateClock, greeterModule, cyclic]).validate(root: GreeterKey.self)
        } throws: { error in
            let descriptions = (error as? RegistryProblems)?.problems.map(\.description) ?? []
            return descriptions.count == 3
                && descriptions.contains { $0.hasPrefix("duplicate ClockKey") && $0.contains("provided by Core and Account") }
                && descriptions.contains { $0.hasPrefix("missing LimitsKey") }
                && descriptions.contains { $0 == "cycle: AKey → BKey → AKey" }
        }
    }

    @Test func aMissingRootIsAProblem() {
        #expect {
            try RegistryBuilder(modules: [coreModule]).validate(root: GreeterKey.self)
        } throws: { error in
            (error as? RegistryProblems)?.problems.map(\.description)
                == ["missing GreeterKey (Greeter): required by the composition root, expected from CoreTests, which does not provide it"]
        }
    }

    @Test func overridingReturnsACopyWithTheFakeAndLeavesTheOriginal() throws {
        let registry = try RegistryBuilder(modules: [coreModule, settingsModule, greeterModule]).validate(root: GreeterKey.self)
        let faked = try registry.overriding { $0.replace(.singleton(LimitsKey.self) { DefaultLimits(perTransfer: 7) }) }
        #expect(faked.resolve().greet() == "hello at 1, limit 7")
        #expect(registry.resolve().greet() == "hello at 1, limit 5000000")
        #expect(faked.catalogue.first { $0.key.name == "LimitsKey" }?.module == "override")
    }

    @Test func overridingAnUnregisteredKeyIsAnError() throws {
        let registry = try RegistryBuilder(modules: [coreModule, settingsModule, greeterModule]).validate(root: GreeterKey.self)
        #expect {
            try registry.overriding { $0.replace(.singleton(AKey.self) { 1 }) }
        } throws: { error in
            (error as? RegistryProblems)?.problems == [.overrideOfUnregistered(KeyInfo(AKey.self))]
        }
    }

    @Test func aKeyOverriddenTwiceIsAProblemNotALastOneWins() throws {
        let registry = try RegistryBuilder(modules: [coreModule, settingsModule, greeterModule]).validate(root: GreeterKey.self)
        #expect {
            try registry.overriding {
                $0.replace(.singleton(LimitsKey.self) { DefaultLimits(perTransfer: 7) })
                $0.replace(.singleton(LimitsKey.self) { DefaultLimits(perTransfer: 8) })
            }
        } throws: { error in
            (error as? RegistryProblems)?.problems == [.repeatedOverride(KeyInfo(LimitsKey.self))]
        }
    }

    @Test func anAdditionIsAvailableToTheReplacementsAndMustBeNew() throws {
        let registry = try RegistryBuilder(modules: [coreModule, settingsModule, greeterModule]).validate(root: GreeterKey.self)
        let extended = try registry.overriding {
            $0.add(.instance(AKey.self, 42))
            $0.replace(.singleton(LimitsKey.self, requires: AKey.self) { DefaultLimits(perTransfer: $0) })
        }
        #expect(extended.resolve().greet() == "hello at 1, limit 42")
        #expect {
            try registry.overriding { $0.add(.instance(LimitsKey.self, DefaultLimits(perTransfer: 1))) }
        } throws: { error in
            (error as? RegistryProblems)?.problems == [.additionOfRegistered(KeyInfo(LimitsKey.self))]
        }
    }

    @Test func aSingletonIsCreatedExactlyOnceUnderConcurrentFirstAccess() async throws {
        final class Expensive: Sendable {}
        enum ExpensiveKey: ServiceKey { typealias Service = Expensive }
        let made = Atomic<Int>(0)
        let registry = try RegistryBuilder(modules: [
            ModuleOf(
                "Test",
                [
                    .singleton(ExpensiveKey.self) {
                        made.add(1, ordering: .relaxed)
                        var spin = 0
                        for index in 0..<50_000 { spin &+= index } // widen the window for a racing second creation
                        _ = spin
                        return Expensive()
                    }
                ])
        ]).validate(root: ExpensiveKey.self)

        let instances = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<200 { group.addTask { ObjectIdentifier(registry.resolve()) } }
            return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(made.load(ordering: .relaxed) == 1)
        #expect(instances.count == 1)
    }

    @Test func aTransientIsCreatedOnEveryResolution() throws {
        final class Fresh: Sendable {}
        enum FreshKey: ServiceKey { typealias Service = Fresh }
        let registry = try RegistryBuilder(modules: [ModuleOf("Test", [.transient(FreshKey.self) { Fresh() }])]).validate(
            root: FreshKey.self)
        #expect(registry.resolve() !== registry.resolve())
    }

    @Test @MainActor func mainActorServicesStayMainActor() throws {
        @MainActor final class Screen {
            var title = "home"
            nonisolated init() {}
        }
        enum ScreenKey: ServiceKey { typealias Service = Screen }
        enum ScreenFactoryKey: ServiceKey { typealias Service = @MainActor @Sendable () -> Screen }
        let registry = try RegistryBuilder(modules: [
            ModuleOf(
                "Test",
                [
                    .singleton(ScreenKey.self) { Screen() },
                    .singleton(ScreenFactoryKey.self) { { Screen() } },
                ])
        ]).validate(root: ScreenKey.self)
        let screen = registry.resolve()
        screen.title = "accounts" // only legal on the main actor: the type kept its isolation
        #expect(screen.title == "accounts")
        let makeScreen = try registry.overriding { _ in }.catalogue.contains { $0.key == KeyInfo(ScreenFactoryKey.self) }
        #expect(makeScreen)
        let factory = try RegistryBuilder(modules: [ModuleOf("Test", [.singleton(ScreenFactoryKey.self) { { Screen() } }])])
            .validate(root: ScreenFactoryKey.self).resolve()
        #expect(factory().title == "home")
    }
}
