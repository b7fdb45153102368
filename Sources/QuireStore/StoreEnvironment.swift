import Foundation
import QuireCore

/// Where the store gets the time and new ids from.
///
/// Every write reads the clock once and makes its ids from that instant, so tests that pass a
/// fixed clock and a seeded generator see the same ids, times and outbox on every run.
public struct StoreEnvironment: Sendable {
    /// The current instant. The store rounds it down to whole milliseconds, the precision it
    /// writes times with, so what is stored reads back equal.
    public var now: @Sendable () -> Date
    /// A new UUIDv7 for the given instant; ids from one environment must be strictly increasing.
    public var newID: @Sendable (Date) -> String

    public init(now: @escaping @Sendable () -> Date, newID: @escaping @Sendable (Date) -> String) {
        self.now = now
        self.newID = newID
    }

    /// The system clock and the process's one UUIDv7 generator, fed by the system's randomness.
    ///
    /// Made once: every store, ledger and runtime that reads `live` shares the generator, so ids
    /// made anywhere in the process are strictly increasing (a new generator per use could hand
    /// out a smaller id in the same millisecond).
    public static let live: StoreEnvironment = {
        let ids = IDSource(random: nil)
        return StoreEnvironment(now: { Date() }, newID: { ids.next(at: $0) })
    }()

    /// A deterministic environment for tests: the clock starts at `start` and moves forward by
    /// `step` seconds each time it is read; ids come from a generator seeded with `seed`.
    public static func deterministic(
        start: Date = Date(timeIntervalSince1970: 1_800_000_000), step: TimeInterval = 1, seed: UInt64 = 42
    ) -> StoreEnvironment {
        let clock = SteppingClock(start: start, step: step)
        let ids = IDSource(random: SeededRandom(seed: seed))
        return StoreEnvironment(now: { clock.next() }, newID: { ids.next(at: $0) })
    }
}

/// A UUIDv7 generator shared by every connection of one store; the lock keeps ids increasing
/// when two threads ask at once.
private final class IDSource: @unchecked Sendable {
    private let lock = NSLock()
    private var generator = UUIDv7Generator()
    private var seeded: SeededRandom?
    private var system = SystemRandomNumberGenerator()

    init(random: SeededRandom?) { seeded = random }

    func next(at date: Date) -> String {
        lock.lock()
        defer { lock.unlock() }
        if var random = seeded {
            defer { seeded = random }
            return generator.next(now: date, using: &random)
        }
        return generator.next(now: date, using: &system)
    }
}

/// A clock for tests that advances by a fixed step on every read.
private final class SteppingClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    private let step: TimeInterval

    init(start: Date, step: TimeInterval) {
        current = start
        self.step = step
    }

    func next() -> Date {
        lock.lock()
        defer { lock.unlock() }
        let value = current
        current = current.addingTimeInterval(step)
        return value
    }
}
