import Foundation

/// Starts Foundation `Process`es one at a time.
///
/// The test suites run in parallel and many of them start children (the built `quire`,
/// `quire-server`, `git`, `openssl`); Foundation's `Process.run()` crashed the test process
/// (a bad pointer in a `memcpy` inside `run()`) when several threads started children at
/// once, with no project code on the stack. Only the start is serialized: the children then
/// run side by side as before.
public enum ProcessLaunch {
    private static let lock = NSLock()

    /// Starts `process`, waiting for any other start to finish first.
    public static func run(_ process: Process) throws {
        lock.lock()
        defer { lock.unlock() }
        try process.run()
    }
}
