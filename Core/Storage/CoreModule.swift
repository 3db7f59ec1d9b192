import Persistence
import Registry
import SharedKit

extension ModuleOf {
    /// Core's services as the App provides them, in one line for tests, Examples and benchmarks:
    /// `database` (in memory, temporary or on disk; it is also the unit of work), the wall `clock`
    /// (a `ManualWallClock` in tests), the `home` folder when the caller has one, the `credentials`
    /// store (by default one in memory that stands for the home's files: secrets stay where they were
    /// before a system store existed), and `extra` providers the caller's composition needs beside them.
    ///
    ///     try RegistryBuilder(modules: [ModuleOf.core(database: database, clock: clock), TransferDataModule()])
    public static func core(
        database: AppDatabase, clock: any WallClock = SystemWallClock(), home: MoaHome? = nil,
        credentials: any CredentialStore = InMemoryCredentialStore(backend: .files), extra: [Provider] = []
    ) -> ModuleOf {
        var providers: [Provider] = [
            .instance(DatabaseKey.self, database),
            .instance(UnitOfWorkKey.self, database),
            .instance(WallClockKey.self, clock),
            .instance(CredentialStoreKey.self, credentials),
        ]
        if let home { providers.append(.instance(MoaHomeKey.self, home)) }
        return ModuleOf("Core", providers + extra)
    }
}
