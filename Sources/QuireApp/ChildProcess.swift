import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Starts a program on the terminal and waits for it, with the signal state a program expects:
/// the one way Quire runs a person's editor, from the app (`E`) and from `quire edit`.
///
/// A child inherits its parent's blocked signals and the ones it ignores: the app blocks and
/// ignores some for its own handling, and Dispatch's threads block them all, so an editor
/// started plainly (as Foundation's `Process` may) would never hear Ctrl-C or a resize. The spawn
/// gives the child an empty signal mask and every signal's default action.
public enum ChildProcess {
    public struct SpawnError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `command` through `/bin/sh -c` with `arguments` as `$1`, `$2`...
    /// `beside` starts it away from the terminal, for a program that runs beside the app (a
    /// file's opener): its standard input and output are `/dev/null`, and it leads a session
    /// of its own, so it can neither read the app's keys, draw over its screen, nor take the
    /// terminal's Ctrl-C.
    public static func spawn(
        shellCommand command: String, arguments: [String], environment: [String: String], beside: Bool = false
    ) throws(SpawnError) -> pid_t {
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
        sigfillset(&defaults)
        // These two cannot be caught or ignored, so they have no action to reset.
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if beside {
            flags |= Self.newSession
            for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
                posix_spawn_file_actions_addopen(
                    &actions, descriptor, "/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
            }
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &cArguments, &cEnvironment)
        guard result == 0 else {
            throw SpawnError(description: "cannot start /bin/sh: \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// glibc's `POSIX_SPAWN_SETSID` (the child calls setsid), which Swift does not import.
    static let newSession: Int32 = 0x80

    /// Runs `command` as `spawn` does and waits for it to end; its exit status, as `wait` says.
    public static func run(
        shellCommand command: String, arguments: [String], environment: [String: String]
    ) throws(SpawnError) -> Int32 {
        wait(try spawn(shellCommand: command, arguments: arguments, environment: environment))
    }

    /// Waits for a child to end; its exit status, or 128 + the signal that ended it.
    public static func wait(_ pid: pid_t) -> Int32 {
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
