import Persistence
import Registry
import Storage

extension AuthDataModule {
    /// `UnitOfWorkKey` on `database`, for running Auth without the App (AuthExample, which does not
    /// depend on Persistence where the key is declared). In the app, Core provides it.
    public static func unitOfWork(on database: AppDatabase) -> Provider {
        .instance(UnitOfWorkKey.self, database)
    }
}
