import Foundation
import QuireTestSupport
import Testing

@testable import QuireSync

@Suite struct SyncLockTests {
    let path = NSTemporaryDirectory() + "quire-sync-lock-\(UUID().uuidString)"

    @Test func oneHolderAtATime() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = SyncLock(path: path, now: { Date() })
        let second = SyncLock(path: path, now: { Date() })
        #expect(try first.tryLock())
        #expect(try !second.tryLock())
        first.unlock()
        #expect(try second.tryLock())
    }

    @Test func aKilledHolderLetsGo() async throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Another process takes the lock and holds it until killed (`--close`: only flock itself
        // holds it, not the command it waits on).
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let holder = try SpawnedProcess(
            "/usr/bin/flock", ["--exclusive", "--close", path, "/bin/cat"], input: .descriptor(ends[0]))
        close(ends[0])
        defer { close(ends[1]) }
        let lock = SyncLock(path: path, now: { Date() })
        await eventually {
            // A probe that lets go at once if it got the lock before the holder did.
            let got = (try? lock.tryLock()) ?? false
            if got { lock.unlock() }
            return !got
        }
        kill(holder.processIdentifier, SIGKILL)
        // The kernel closes a dead process's files at once, reaped or not.
        #expect(try await lock.lock(timeout: 5))
    }
}
