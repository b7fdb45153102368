import Foundation

/// The next occurrence of a recurring task, made when an occurrence is completed (SPEC: Notes,
/// tasks…, Recurrence).
///
/// Two devices that complete the same occurrence, offline, must end with one next occurrence,
/// not two, and without a clean-up that could delete the wrong one. So the next occurrence is a
/// pure function of the completed one: its id is derived from the completed occurrence's id and
/// the next due date, and its fields from the completed occurrence's. Both devices create the
/// same item, byte for byte; the second create to reach the server meets an item that already
/// holds every value it sets, which sync takes as done. Completing again after reopening
/// derives the same id again: the item is already there, and nothing new is made.
extension Item {
    /// The occurrence that follows this one, or nil when this is not a recurring task with a
    /// due date (or the next date falls past 9999). `createdAt` is the time written in its id,
    /// as the server reads it; `updatedAt` is `now`.
    public func nextOccurrence(now: Date) -> Item? {
        guard kind == .task, let recur, let due, let next = recur.next(after: due) else { return nil }
        let (nextDue, rule) = next
        let shift = nextDue.ordinal - due.ordinal
        let id = Item.occurrenceID(after: id, due: due, nextDue: nextDue)
        let created = UUIDv7Generator.creationTime(ofID: id) ?? Date(timeIntervalSince1970: 0)
        return Item(
            id: id, kind: .task, title: title, body: body, tags: tags, due: nextDue, priority: priority,
            pinned: pinned, project: project, recur: rule, wait: wait.flatMap { $0.adding(days: shift) },
            scheduled: scheduled.flatMap { $0.adding(days: shift) }, createdAt: created, updatedAt: now,
            syncState: .pending)
    }

    /// A UUIDv7 for the occurrence due `nextDue` that follows the one with id `previous`: its
    /// time is the start of the completed occurrence's due day (UTC) or just after the
    /// previous id's time, whichever is later, so occurrences sort in order; its other bits come
    /// from a hash of both inputs, so every device derives the same id.
    public static func occurrenceID(after previous: String, due: Day, nextDue: Day) -> String {
        let dueStart = UInt64(max(0, due.ordinal)) * 86_400_000
        let previousTime = UUIDv7Generator.milliseconds(ofID: previous).map { $0 + 1 } ?? 0
        let milliseconds = min(max(dueStart, previousTime), (1 << 48) - 1)
        let source = Array("\(previous.lowercased())|\(nextDue)".utf8)
        let high = Item.hash(source, seed: 0xcbf2_9ce4_8422_2325)
        let low = Item.hash(source, seed: 0x8422_2325_cbf2_9ce4)
        return UUIDv7Generator.format(
            milliseconds: milliseconds, counter: UInt16(truncatingIfNeeded: high & 0x0FFF), tail: low)
    }

    /// FNV-1a over `bytes` from `seed`, then SplitMix64's finalizer to spread the bits: stable
    /// across runs and platforms (Swift's `Hasher` is seeded per process).
    private static func hash(_ bytes: [UInt8], seed: UInt64) -> UInt64 {
        var value = seed
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
        value = (value ^ (value >> 30)) &* 0xbf58_476d_1ce4_e5b9
        value = (value ^ (value >> 27)) &* 0x94d0_49bb_1331_11eb
        return value ^ (value >> 31)
    }
}

extension Item {
    /// An open task whose `wait` day is after `today`: hidden from default lists until then.
    public func isWaiting(after today: Day) -> Bool {
        kind == .task && !done && (wait.map { $0 > today } ?? false)
    }
}
