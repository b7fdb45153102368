import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process the tests start: the built `quire` and `quire-server`, `git`, `openssl`,
/// `flock`, tmux.
///
/// Not Foundation's `Process`: on Linux its `run()` reads `/proc/self/fd` with a fixed-size copy
/// of each directory entry, which reads past glibc's buffer once the process holds about 1,350
/// descriptors (swift-corelibs-foundation #5472). The suites run side by side in one process
/// and reach that many at their peak (servers, clients, databases), and the whole run crashed
/// in `memcpy` with no project code on the stack. Here the child's standard streams are opened
/// by `posix_spawn` itself, every other descriptor is closed in the child, and it starts with
/// an empty signal mask and default actions (Dispatch's threads block every signal, which a
/// child would otherwise inherit), in a process group of its own.
public final class SpawnedProcess: @unchecked Sendable {
    /// Where a child's standard input comes from.
    public enum Input: Sendable {
        case nullDevice
        case file(String)
        /// A descriptor of this process (the read end of a pipe), given to the child as its input.
        case descriptor(Int32)
    }

    /// Where a child's standard output or error goes.
    public enum Output: Sendable {
        case nullDevice
        /// The file at this path, created or emptied.
        case file(String)
        /// Standard error only: into the same file as standard output, in the order written.
        case sameAsOutput
    }

    public enum TerminationReason: Sendable, Equatable {
        case exit
        case uncaughtSignal
    }

    public let processIdentifier: pid_t
    private let lock = NSLock()
    /// The wait status, once the child has been reaped (by whichever thread reaped it).
    private var waitStatus: Int32?

    /// Starts `executable` (a path) with `arguments`.
    /// - Parameter environment: the child's whole environment; nil passes on this process's.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        input: Input = .nullDevice, output: Output = .nullDevice, error: Output = .nullDevice
    ) throws(ChildProcessError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch input {
        case .nullDevice: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .file(let path): posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, 0)
        }
        for (descriptor, target) in [(Int32(1), output), (2, error)] {
            switch target {
            case .nullDevice:
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .sameAsOutput:
                posix_spawn_file_actions_adddup2(&actions, 1, descriptor)
            }
        }
        _ = SpawnedProcess.closeFrom?(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        // These two cannot be caught or ignored, so they have no action to reset.
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let variables = environment ?? ProcessInfo.processInfo.environment
        var argv = ([executable] + arguments).map { strdup($0) } + [nil]
        var envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, &argv, &envp)
        guard result == 0 else {
            throw ChildProcessError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        processIdentifier = pid
    }

    deinit {
        // A child nobody waited for is reaped if it has ended, so it does not stay a zombie.
        _ = isRunning
    }

    /// Whether the child still runs (it is reaped here if it has ended).
    public var isRunning: Bool {
        if lock.withLock({ waitStatus }) != nil { return false }
        var status: Int32 = 0
        switch waitpid(processIdentifier, &status, WNOHANG) {
        case 0: return true
        case processIdentifier:
            lock.withLock { waitStatus = status }
            return false
        default:
            // Another thread reaped it: it has ended.
            return false
        }
    }

    /// Blocks the calling thread until the child has ended.
    public func waitUntilExit() {
        while lock.withLock({ waitStatus }) == nil {
            var status: Int32 = 0
            let result = waitpid(processIdentifier, &status, 0)
            if result == processIdentifier {
                lock.withLock { waitStatus = status }
            } else if result == -1 && errno == ECHILD {
                // Reaped by another thread, which records the status right after.
                sched_yield()
            }
        }
    }

    /// Its exit status, or the number of the signal that ended it (as Foundation's `Process`).
    public var terminationStatus: Int32 {
        waitUntilExit()
        let status = lock.withLock { waitStatus ?? 0 }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F
    }

    public var terminationReason: TerminationReason {
        waitUntilExit()
        return lock.withLock { waitStatus ?? 0 } & 0x7F == 0 ? .exit : .uncaughtSignal
    }

    /// Sends SIGTERM.
    public func terminate() { kill(processIdentifier, SIGTERM) }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift does not
    /// import: it closes every descriptor from the given one up in the child, with no race with
    /// threads that open files meanwhile.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? =
        {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
            else { return nil }
            return unsafeBitCast(
                symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        }()
}
