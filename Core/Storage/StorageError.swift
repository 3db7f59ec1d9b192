import SharedKit

/// What can go wrong with the database or the home folder, in the user's terms.
public enum StorageError: Error, UserFacingError, Equatable {
    case cannotCreateHome(path: String, reason: String)
    case cannotOpen(path: String, reason: String)
    case migrationFailed(id: String, reason: String)
    /// The database was written by a newer `moa` (it has migrations this build does not know).
    case newerSchema(unknown: [String])
    case busy
    case failed(reason: String)

    public var message: String {
        switch self {
        case .cannotCreateHome(let path, let reason): "Cannot create the Moa folder at \(path): \(reason)."
        case .cannotOpen(let path, let reason): "Cannot open the database at \(path): \(reason)."
        case .migrationFailed(let id, let reason): "Updating the database failed at step \(id): \(reason)."
        case .newerSchema(let unknown): "The database was written by a newer moa (unknown steps: \(unknown.joined(separator: ", ")))."
        case .busy: "The database stayed busy: another moa is writing."
        case .failed(let reason): "A database operation failed: \(reason)."
        }
    }

    public var hint: String? {
        switch self {
        case .cannotCreateHome, .cannotOpen: "Check the folder's permissions, or choose another with --home or MOA_HOME."
        case .newerSchema: "Upgrade moa, or use another --home."
        case .busy: "Try again in a moment."
        case .migrationFailed, .failed: nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .cannotCreateHome, .cannotOpen, .failed: .ioError
        case .migrationFailed, .newerSchema: .configuration
        case .busy: .temporaryFailure
        }
    }
}
