import Persistence
import Registry
import SharedKit

extension ModuleOf {
    /// Core's services as the App provides them, in one line for tests, Examples and benchmarks:
    /// `database` (in memory, temporary or on disk; it is also the unit of work), the wall `clock`
    /// (a `ManualWallClock` in tests), the `home` folder when the caller has one, and `extra`
    /// providers the caller's composition needs beside them.
    ///
    ///     try RegistryBuilder(modules: [ModuleOf.core(database: database, clock: clock), TransferDataModule()])
    public static func core(
        database: AppDatabase, clock: any WallClock = SystemWallClock(), home: MoaHome? = nil,
        extra: [Provider] = []
    ) -> ModuleOf {
        var providers: [Provider] = [
            .instance(DatabaseKey.self, database),
            .instance(UnitOfWorkKey.self, database),
            .instance(WallClockKey.self, clock),
        ]
        if let home { providers.append(.instance(MoaHomeKey.self, home)) }
        return ModuleOf("Core", providers + extra)
    }
}
