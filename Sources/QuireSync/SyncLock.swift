import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One sync at a time per database, across processes: an exclusive `flock` on a file beside
/// the database.
///
/// The kernel drops the lock when its holder exits, however it exits (even `SIGKILL`), so a
/// crashed `quire sync` never leaves the database locked. Two `SyncLock`s on the same file
/// exclude each other even inside one process (each opens its own file description).
public final class SyncLock: @unchecked Sendable {
    /// The lock file path used for a database.
    public static func path(forDatabase databasePath: String) -> String {
        databasePath + ".sync-lock"
    }

    public let path: String
    /// The clock `lock(timeout:)` measures its wait with.
    private let now: @Sendable () -> Date
    /// Guards `descriptor`.
    private let mutex = NSLock()
    private var descriptor: Int32 = -1

    public init(path: String, now: @escaping @Sendable () -> Date) {
        self.path = path
        self.now = now
    }

    deinit {
        unlock()
    }

    /// Takes the lock if nobody holds it; false when another holder has it.
    public func tryLock() throws -> Bool {
        try mutex.withLock {
            if descriptor >= 0 { return true }
            let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                throw SyncLockError(message: "cannot open the sync lock \(path): \(String(cString: strerror(errno)))")
            }
            if flock(fd, LOCK_EX | LOCK_NB) == 0 {
                descriptor = fd
                return true
            }
            let code = errno
            close(fd)
            if code == EWOULDBLOCK { return false }
            throw SyncLockError(message: "cannot lock \(path): \(String(cString: strerror(code)))")
        }
    }

    /// Takes the lock, waiting up to `timeout` seconds for another holder to let go.
    public func lock(timeout: TimeInterval) async throws -> Bool {
        let deadline = now().addingTimeInterval(timeout)
        while true {
            if try tryLock() { return true }
            if now() >= deadline { return false }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    public func unlock() {
        mutex.withLock {
            guard descriptor >= 0 else { return }
            flock(descriptor, LOCK_UN)
            close(descriptor)
            descriptor = -1
        }
    }
}

public struct SyncLockError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}
