/// The process exit statuses `moa` uses, following sysexits(3) so that scripts can rely on them.
///
/// Every user-facing failure maps to exactly one of these; the mapping is part of the CLI contract
/// and documented in the README.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Success.
    case ok = 0
    /// A business rule refused the request (insufficient funds, over the limit, …).
    case refused = 1
    /// The command line was wrong (EX_USAGE).
    case usage = 64
    /// The input data was wrong: malformed value, file or JSON (EX_DATAERR).
    case dataError = 65
    /// An input file does not exist or cannot be read (EX_NOINPUT).
    case noInput = 66
    /// Something named does not exist or a service is unavailable (EX_UNAVAILABLE).
    case unavailable = 69
    /// An internal error: a bug or a broken composition (EX_SOFTWARE).
    case software = 70
    /// Reading or writing a file failed (EX_IOERR).
    case ioError = 74
    /// A temporary failure; trying again later may work (EX_TEMPFAIL).
    case temporaryFailure = 75
    /// Not logged in, or not allowed (EX_NOPERM).
    case noPermission = 77
    /// The configuration is wrong (EX_CONFIG).
    case configuration = 78
    /// Stopped by Ctrl-C (SIGINT) while waiting, with nothing changed (128 + SIGINT, as shells report it).
    case interrupted = 130
}
