import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts a program on the terminal and waits for it, with the signal state a program expects.
///
/// The app ignores and blocks some signals for its own handling; a child inherits both, so an
/// editor would never hear Ctrl-C or a resize. The spawn resets them to their defaults.
enum ChildProcess {
    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `command` through `/bin/sh -c` with `arguments` as `$1`, `$2`...
    static func spawn(shellCommand command: String, arguments: [String], environment: [String: String]) throws -> pid_t {
        let argv = ["/bin/sh", "-c", command + " \"$@\"", "sh"] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var cArguments = argv.map { strdup($0) } + [nil]
        var cEnvironment = envp.map { strdup($0) } + [nil]
        defer {
            for pointer in cArguments { free(pointer) }
            for pointer in cEnvironment { free(pointer) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGQUIT, SIGPIPE, SIGTSTP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", nil, &attributes, &cArguments, &cEnvironment)
        guard result == 0 else {
            throw SpawnError(description: "cannot start /bin/sh: \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// Waits for a child to end; its exit status, or 128 + the signal that ended it.
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            if errno != EINTR { return -1 }
        }
        let signal = status & 0x7F
        if signal == 0 { return (status >> 8) & 0xFF }
        return 128 + signal
    }
}

/// The pid of the external editor while it runs; read by signal handlers on other queues.
final class ChildRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var pid: pid_t?

    var current: pid_t? { lock.withLock { pid } }

    func set(_ value: pid_t?) {
        lock.withLock { pid = value }
    }

    /// Passes a signal on to the editor, if one runs.
    func forward(_ signal: Int32) {
        if let pid = current { kill(pid, signal) }
    }
}
