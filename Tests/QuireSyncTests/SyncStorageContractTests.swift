import Foundation
import QuireCore
import QuireStore
import Testing

@testable import QuireSync

/// What every `SyncStorage` must do, run against the store's tables and the in-memory storage
/// the unit tests use, so the two cannot drift apart.
@Suite struct SyncStorageContractTests {
    /// A storage under test, and how to read back what the protocol only writes.
    enum Subject: String, CaseIterable, CustomTestStringConvertible {
        case memory
        case store

        var testDescription: String { rawValue }

        func make() throws -> (storage: any SyncStorage, events: () throws -> [SyncEvent]) {
            switch self {
            case .memory:
                let storage = InMemorySyncStorage(deviceID: "0193a9d2-0000-7000-8000-000000000001")
                return (storage, { storage.events })
            case .store:
                let database = try AppDatabase.temporary()
                // Oldest first, as the in-memory log keeps them.
                return (database.syncStorage(), { try database.recentSyncEvents(limit: 10_000).reversed() })
            }
        }
    }

    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static func id(_ n: Int) -> String { String(format: "0193a9d2-0000-7000-8000-%012d", n) }

    static func item(_ n: Int, rev: Int = 1, title: String? = nil) -> Item {
        Item(
            id: id(n), kind: .task, title: title ?? "Item \(n)", tags: ["home"], createdAt: t0, updatedAt: t0, rev: rev)
    }

    static func op(_ n: Int, item: Int, kind: OpKind = .update, state: OutboxState = .pending) -> OutboxOp {
        let fields: [Field: FieldChange]? =
            kind == .delete ? nil : [.title: FieldChange(from: .string("a"), to: .string("b"))]
        return OutboxOp(
            op: Op(id: id(1000 + n), item: id(item), kind: kind, baseRev: 1, fields: fields), state: state,
            createdAt: t0)
    }

    /// Saves new items (with their ops and conflicts) as sync does.
    static func save(_ items: [LocalItem], in storage: any SyncStorage) throws {
        try storage.write { tx in try tx.save(items.map { LocalChange(new: $0, old: LocalItem(id: $0.id)) }) }
    }

    @Test(arguments: Subject.allCases)
    func whatIsSavedReadsBackTheSame(_ subject: Subject) throws {
        let (storage, _) = try subject.make()
        let conflict = ConflictRecord(
            itemID: Self.id(2), base: Self.item(2), local: Self.item(2, title: "Mine"), remote: Self.item(2, rev: 2),
            fields: [.title], detectedAt: Self.t0)
        try Self.save(
            [
                LocalItem(
                    id: Self.id(1), item: Self.item(1), ops: [Self.op(1, item: 1), Self.op(2, item: 1, kind: .delete)]),
                LocalItem(id: Self.id(2), item: Self.item(2), conflict: conflict),
            ], in: storage)
        let read = try storage.read { try $0.items([Self.id(1), Self.id(2), Self.id(3)]) }
        #expect(Set(read.keys) == [Self.id(1), Self.id(2)], "an unknown id is left out")
        #expect(read[Self.id(1)]?.item == Self.item(1))
        #expect(read[Self.id(1)]?.ops.map(\.op) == [Self.op(1, item: 1).op, Self.op(2, item: 1, kind: .delete).op])
        #expect(read[Self.id(1)]?.ops.allSatisfy { $0.seq > 0 } == true, "stored ops have their place in line")
        #expect(read[Self.id(2)]?.conflict == conflict)
        let range = try storage.read { try $0.items(idAfter: Self.id(1), through: nil) }
        #expect(range.map(\.id) == [Self.id(2)])
    }

    @Test(arguments: Subject.allCases)
    func opsAreSentInOrderAndNeverForAnItemThatNeedsReview(_ subject: Subject) throws {
        let (storage, _) = try subject.make()
        let conflict = ConflictRecord(
            itemID: Self.id(2), base: nil, local: Self.item(2), remote: Self.item(2, rev: 2), fields: [.title],
            detectedAt: Self.t0)
        try Self.save(
            [
                LocalItem(
                    id: Self.id(1), item: Self.item(1),
                    ops: [Self.op(1, item: 1), Self.op(3, item: 1, state: .rejected)]),
                LocalItem(id: Self.id(2), item: Self.item(2), ops: [Self.op(2, item: 2)], conflict: conflict),
                LocalItem(
                    id: Self.id(3), item: Self.item(3),
                    ops: [Self.op(4, item: 3), Self.op(5, item: 3, state: .inFlight)]),
            ], in: storage)
        let sendable = try storage.read { try $0.sendableOps(limit: 10) }
        #expect(sendable.map(\.op.id) == [Self.id(1001), Self.id(1004)])
        #expect(try storage.read { try $0.sendableOps(limit: 1) }.map(\.op.id) == [Self.id(1001)])
        #expect(try storage.read { try $0.inFlightOps() }.map(\.op.id) == [Self.id(1005)])
        #expect(try storage.read { try $0.hasOutstandingChanges() })
    }

    @Test(arguments: Subject.allCases)
    func changedOpsAndRemovedOnesAreSaved(_ subject: Subject) throws {
        let (storage, _) = try subject.make()
        try Self.save(
            [LocalItem(id: Self.id(1), item: Self.item(1), ops: [Self.op(1, item: 1), Self.op(2, item: 1)])],
            in: storage)
        try storage.write { tx in
            let old = try #require(try tx.items([Self.id(1)])[Self.id(1)])
            var new = old
            new.ops.removeFirst()
            new.ops[0].state = .inFlight
            new.ops[0].attempts = 1
            new.ops.append(Self.op(3, item: 1))
            new.item?.syncState = .syncing
            try tx.save(new, over: old)
        }
        let after = try #require(try storage.read { try $0.items([Self.id(1)]) }[Self.id(1)])
        #expect(after.ops.map(\.op.id) == [Self.id(1002), Self.id(1003)])
        #expect(after.ops.map(\.state) == [.inFlight, .pending])
        #expect(after.ops.map(\.attempts) == [1, 0])
        #expect(after.item?.syncState == .syncing)
    }

    @Test(arguments: Subject.allCases)
    func positionLiveVersionsAndTheBoundedLog(_ subject: Subject) throws {
        let (storage, events) = try subject.make()
        try storage.write { tx in
            var position = try tx.position()
            position.cursor = "c-7"
            position.epoch = "e-1"
            position.stateHash = "abc"
            position.lastSuccessAt = Self.t0
            position.lockedAt = Self.t0
            try tx.setPosition(position)
        }
        let position = try storage.read { try $0.position() }
        #expect([position.cursor, position.epoch, position.stateHash] == ["c-7", "e-1", "abc"])
        #expect(position.lastSuccessAt == Self.t0)
        #expect(position.lockedAt == Self.t0)

        var gone = Self.item(2, rev: 3)
        gone.deleted = true
        try Self.save(
            [
                LocalItem(id: Self.id(1), item: Self.item(1, rev: 4)), LocalItem(id: Self.id(2), item: gone),
                LocalItem(id: Self.id(3), item: Self.item(3, rev: 0)),
            ], in: storage)
        let versions = try storage.read { try $0.liveVersions() }.sorted { $0.id < $1.id }
        #expect(versions.map(\.id) == [Self.id(1)] && versions.map(\.rev) == [4])
        #expect(try !storage.read { try $0.hasOutstandingChanges() })

        let written = (0..<5).map {
            SyncEvent(at: Self.t0, kind: .pullOK, message: "event \($0)", bytes: 100 + $0, duration: 0.25)
        }
        try storage.write { try $0.appendEvents(written, keeping: 3) }
        let kept = try events()
        #expect(kept.map(\.message) == ["event 2", "event 3", "event 4"], "the newest are kept")
        #expect(kept.map(\.bytes) == [102, 103, 104])
        #expect(kept.allSatisfy { $0.kind == .pullOK && $0.duration == 0.25 })
    }

    @Test(arguments: Subject.allCases)
    func aWriteThatThrowsLeavesNothingBehind(_ subject: Subject) throws {
        let (storage, _) = try subject.make()
        struct Refused: Error {}
        #expect(throws: (any Error).self) {
            try storage.write { tx in
                try tx.save([
                    LocalChange(new: LocalItem(id: Self.id(1), item: Self.item(1)), old: LocalItem(id: Self.id(1)))
                ])
                throw Refused()
            }
        }
        #expect(try storage.read { try $0.items([Self.id(1)]) }.isEmpty)
    }
}
