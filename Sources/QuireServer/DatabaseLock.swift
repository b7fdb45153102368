import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An advisory lock on `<database>.lock`, beside a SQLite database file.
///
/// Every process that opens the database (the server, `user add`, …) holds it shared for as
/// long as the store is open; `restore` takes it exclusively, so it refuses to swap the file
/// under a running server. The kernel drops the lock when the process ends, even by a crash.
/// A separate file keeps this away from SQLite's own POSIX locks on the database file, which
/// closing any other descriptor of that file would release.
final class DatabaseLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock, shared or exclusive, without waiting; throws a `ConfigurationError`
    /// naming the file when another process holds it the other way.
    init(database path: String, exclusive: Bool) throws {
        let lockPath = path + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ConfigurationError("cannot open the lock file '\(lockPath)': \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 else {
            let failure = errno
            close(descriptor)
            // Only a lock held the other way says who holds it; any other failure says itself.
            guard failure == EWOULDBLOCK else {
                throw ConfigurationError("cannot lock '\(lockPath)': \(String(cString: strerror(failure)))")
            }
            throw ConfigurationError(
                exclusive
                    ? "the database '\(path)' is in use (a running quire-server or another command holds '\(lockPath)'); stop the server first"
                    : "the database '\(path)' is being restored; try again when the restore is done")
        }
        self.descriptor = descriptor
    }

    deinit {
        // Unlocked before it is closed: a child forked meanwhile shares the descriptor until it
        // execs, and would otherwise hold the lock on for that moment.
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
