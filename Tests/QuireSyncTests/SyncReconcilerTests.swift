import Foundation
import QuireCore
import QuireProtocol
import QuireStore
import Testing

@testable import QuireSync

/// Builds ids that sort in creation order, like the app's UUIDv7s.
final class IDMaker: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    let prefix: String

    init(prefix: String = "0193a9d2-0000-7000-8000") {
        self.prefix = prefix
    }

    func next(_: Date = Date()) -> String {
        lock.withLock {
            count += 1
            let digits = String(count)
            return prefix + "-" + String(repeating: "0", count: 12 - digits.count) + digits
        }
    }
}

@Suite struct SyncReconcilerTests {
    let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    let ids = IDMaker()
    let itemID = "0193a9d2-7fff-7000-8000-00000000abcd"

    var synced: Item {
        Item(
            id: itemID, kind: .task, title: "Buy milk", body: "one\ntwo\nthree\n", tags: ["home"],
            createdAt: t0, rev: 3, syncState: .synced)
    }

    func reconciler() -> SyncReconciler { SyncReconciler(now: t0 + 100, newID: ids.next) }

    /// A reconciler that knows these versions of the item's history (newest first), as pulled.
    func reconciler(knowing versions: [Item]) -> SyncReconciler {
        SyncReconciler(
            now: t0 + 100, newID: ids.next,
            histories: [itemID: versions.map { HistoryEntry(item: $0, origin: .remote) }])
    }

    /// A local item edited from `synced` by an update op (pending unless told otherwise).
    func edited(_ values: [Field: FieldValue], state: OutboxState = .pending) throws -> LocalItem {
        let after = try synced.applying(values, now: t0)
        let op = Op(
            id: ids.next(), item: itemID, kind: .update, baseRev: synced.rev, fields: after.changes(since: synced))
        var item = after
        item.syncState = .pending
        return LocalItem(id: itemID, item: item, ops: [OutboxOp(seq: 1, op: op, state: state, createdAt: t0)])
    }

    func server(_ values: [Field: FieldValue], rev: Int = 4, deleted: Bool = false) throws -> ChangeItem {
        var item = try synced.applying(values, now: t0)
        item.rev = rev
        item.deleted = deleted
        return ChangeItem(item)
    }

    // MARK: - Push results

    @Test func anAppliedOpLeavesTheOutboxAndTheItemTakesTheNewRevision() throws {
        var local = try edited([.title: .string("Oat milk")], state: .inFlight)
        var reconciler = reconciler()
        reconciler.apply(.applied(local.ops[0].op.id, rev: 4), to: &local)
        #expect(local.ops.isEmpty)
        #expect(local.item?.rev == 4)
        #expect(local.item?.syncState == .synced)
        #expect(reconciler.summary.applied == 1)
    }

    @Test func anOpAppliedOverOtherWritesLeavesTheRevisionForThePullToBring() throws {
        var local = try edited([.title: .string("Oat milk")], state: .inFlight)
        var reconciler = reconciler()
        reconciler.apply(.applied(local.ops[0].op.id, rev: 7), to: &local)
        #expect(local.item?.rev == 3, "rev 7 also holds another device's change this device has not seen")
        // The pulled version then replaces the item: nothing is left unsent.
        reconciler.apply(pulled: try server([.title: .string("Oat milk"), .pinned: .bool(true)], rev: 7), to: &local)
        #expect(local.item?.pinned == true)
        #expect(local.item?.rev == 7)
    }

    @Test func aConflictOnDifferentFieldsMergesAndQueuesOneOpAgainstTheServerRevision() throws {
        var local = try edited([.title: .string("Oat milk")], state: .inFlight)
        let current = try server([.priority: .string("high")], rev: 5)
        var reconciler = reconciler()
        reconciler.apply(.conflict(local.ops[0].op.id, current: current), to: &local)
        #expect(local.conflict == nil)
        #expect(local.item?.title == "Oat milk")
        #expect(local.item?.priority == .high)
        #expect(local.item?.rev == 5)
        #expect(local.item?.syncState == .pending)
        #expect(local.ops.count == 1)
        #expect(local.ops[0].op.baseRev == 5)
        #expect(local.ops[0].op.fields == [.title: FieldChange(from: .string("Buy milk"), to: .string("Oat milk"))])
        #expect(reconciler.events.map(\.kind) == [.merged])
        #expect(reconciler.history.last?.origin == .merge)
    }

    @Test func theSameFieldChangedDifferentlyNeedsReviewWithAllThreeVersions() throws {
        var local = try edited([.title: .string("Oat milk")], state: .inFlight)
        let current = try server([.title: .string("Soy milk")], rev: 5)
        var reconciler = reconciler()
        reconciler.apply(.conflict(local.ops[0].op.id, current: current), to: &local)
        let record = try #require(local.conflict)
        #expect(record.fields == [.title])
        #expect(record.base?.title == "Buy milk")
        #expect(record.local.title == "Oat milk")
        #expect(record.remote.title == "Soy milk")
        #expect(local.item?.title == "Oat milk", "the person keeps seeing their version")
        #expect(local.item?.syncState == .needsReview)
        #expect(local.activeOps.isEmpty, "nothing is sent for an item in review")
        #expect(reconciler.events.map(\.kind) == [.conflict])
    }

    @Test func skippedOpsGoBackToPending() throws {
        var local = try edited([.title: .string("Oat milk")], state: .inFlight)
        var reconciler = reconciler()
        reconciler.apply(.skipped(local.ops[0].op.id), to: &local)
        #expect(local.ops.first?.state == .pending)
        #expect(local.item?.syncState == .pending)
    }

    @Test func aRejectedOpBecomesADeadLetterWithItsReason() throws {
        var local = try edited([.title: .string("Oat milk")], state: .inFlight)
        var reconciler = reconciler()
        reconciler.apply(.rejected(local.ops[0].op.id, reason: "item does not exist"), to: &local)
        #expect(local.ops.first?.state == .rejected)
        #expect(local.ops.first?.lastError == "item does not exist")
        #expect(local.item?.syncState == .error)
        #expect(reconciler.events.first?.kind == .deadLetter)

        let opID = local.ops[0].op.id
        #expect(reconciler.retryDeadLetter(opID, in: &local))
        #expect(local.ops.count == 1)
        #expect(local.ops[0].state == .pending)
        #expect(local.ops[0].op.id != opID, "a replayed id would get the same refusal")
        #expect(local.item?.syncState == .pending)
    }

    /// Issue: discarding a refused change left an item that exists on this device only, shown
    /// as synced. Now it goes back to the server's version.
    @Test func discardingARefusedChangePutsTheItemBackToTheServersVersion() throws {
        var local = try edited([.title: .string("A title the server refuses")], state: .inFlight)
        var reconciler = reconciler()
        reconciler.apply(.rejected(local.ops[0].op.id, reason: "too large"), to: &local)
        #expect(reconciler.discardDeadLetter(local.ops[0].op.id, in: &local))
        #expect(local.ops.isEmpty)
        #expect(local.item?.title == "Buy milk", "what the server has")
        #expect(local.item?.rev == 3)
        #expect(local.item?.syncState == .synced)
        #expect(reconciler.history.last?.item.title == "Buy milk")
    }

    // MARK: - Pulled changes

    @Test func aPulledVersionReplacesAnItemWithoutUnsentChanges() throws {
        var local = LocalItem(id: itemID, item: synced)
        var reconciler = reconciler()
        reconciler.apply(pulled: try server([.title: .string("Soy milk")], rev: 4), to: &local)
        #expect(local.item?.title == "Soy milk")
        #expect(local.item?.rev == 4)
        #expect(reconciler.history.map(\.origin) == [.remote])
    }

    @Test func anOldOrEchoedVersionChangesNothing() throws {
        var local = LocalItem(id: itemID, item: synced)
        var reconciler = reconciler()
        reconciler.apply(pulled: try server([.title: .string("Older")], rev: 3), to: &local)
        #expect(local.item == synced)
        #expect(reconciler.history.isEmpty)
    }

    @Test func aPulledVersionNeverOverwritesUnsentEditsItMergesThem() throws {
        var local = try edited([.body: .string("one\ntwo\nthree\nfour\n")])
        var reconciler = reconciler()
        reconciler.apply(pulled: try server([.body: .string("ONE\ntwo\nthree\n")], rev: 4), to: &local)
        #expect(local.item?.body == "ONE\ntwo\nthree\nfour\n")
        #expect(local.ops.count == 1)
        #expect(local.ops[0].op.baseRev == 4)
        #expect(local.ops[0].op.fields?[.body]?.to == .string("ONE\ntwo\nthree\nfour\n"))
    }

    @Test func anUnknownItemIsInserted() throws {
        var local = LocalItem(id: itemID)
        var reconciler = reconciler()
        reconciler.apply(pulled: try server([:], rev: 1), to: &local)
        #expect(local.item?.title == "Buy milk")
        #expect(local.item?.syncState == .synced)
    }

    @Test func aLocalEditAgainstARemoteDeleteKeepsTheEditForReview() throws {
        var local = try edited([.title: .string("Oat milk")])
        var reconciler = reconciler()
        reconciler.apply(pulled: try server([:], rev: 4, deleted: true), to: &local)
        #expect(local.item?.deleted == false)
        #expect(local.item?.title == "Oat milk")
        #expect(local.item?.syncState == .needsReview)
        #expect(local.conflict?.remote.deleted == true)
    }

    /// A tombstone without content, as an encrypted account's server keeps (SPEC: tombstones
    /// carry no content).
    func contentless(rev: Int) -> ChangeItem {
        ChangeItem(id: itemID, rev: rev, deleted: true, title: "", createdAt: t0, updatedAt: t0 + 50)
    }

    @Test func aTombstoneWithoutContentDeletesTheItemAndTheDeviceKeepsWhatItHad() throws {
        var local = LocalItem(id: itemID, item: synced)
        var reconciler = reconciler()
        reconciler.apply(pulled: contentless(rev: 4), to: &local)
        #expect(local.item?.deleted == true)
        #expect((local.item?.title, local.item?.body, local.item?.tags) == ("Buy milk", "one\ntwo\nthree\n", ["home"]))
        #expect(local.item?.rev == 4)

        // An item this device never had: nothing to keep, nothing stored.
        var unknown = LocalItem(id: itemID)
        reconciler.apply(pulled: contentless(rev: 4), to: &unknown)
        #expect(unknown.item == nil)
    }

    @Test func aLocalEditAgainstATombstoneWithoutContentIsKeptForReview() throws {
        var local = try edited([.title: .string("Oat milk")])
        var reconciler = reconciler()
        reconciler.apply(pulled: contentless(rev: 4), to: &local)
        #expect(local.item?.deleted == false)
        #expect(local.item?.title == "Oat milk")
        #expect(local.item?.syncState == .needsReview)
        #expect(local.conflict?.remote.deleted == true)
        #expect(local.conflict?.remote.title == "Buy milk", "the review shows the version the edit was made on")
    }

    @Test func aNewerServerVersionCanSettleAReviewOnItsOwn() throws {
        var local = try edited([.title: .string("Oat milk")])
        var reconciler = reconciler()
        reconciler.apply(pulled: try server([.title: .string("Soy milk")], rev: 4), to: &local)
        #expect(local.conflict != nil)
        // The other device changes its mind and sets the same title as this one.
        reconciler.apply(pulled: try server([.title: .string("Oat milk")], rev: 5), to: &local)
        #expect(local.conflict == nil)
        #expect(local.item?.syncState == .synced)
        #expect(local.item?.rev == 5)
    }

    // MARK: - Resolution

    @Test(arguments: [ItemMerge.Resolution.local, .remote, .both])
    func resolvingQueuesTheResultAgainstTheServerVersion(_ choice: ItemMerge.Resolution) throws {
        var local = try edited([.body: .string("one\nTWO\nthree\n")])
        var reconciler = reconciler()
        reconciler.apply(pulled: try server([.body: .string("one\n2\nthree\n")], rev: 4), to: &local)
        #expect(reconciler.resolve(&local, keeping: choice))
        #expect(local.conflict == nil)
        let expected = ["local": "one\nTWO\nthree\n", "remote": "one\n2\nthree\n", "both": "one\nTWO\n2\nthree\n"][
            choice.rawValue]
        #expect(local.item?.body == expected)
        #expect(local.item?.rev == 4)
        #expect(reconciler.history.last?.origin == .resolve)
        if choice == .remote {
            #expect(local.ops.isEmpty, "the server already has it")
            #expect(local.item?.syncState == .synced)
        } else {
            #expect(local.ops.map(\.op.baseRev) == [4])
            #expect(local.item?.syncState == .pending)
        }
    }

    // MARK: - Snapshot

    /// The server's epochs in these tests: the one before a restore and the one after.
    static let before = "00000000000000e1"
    static let after = "00000000000000e2"

    /// `synced`, resting on the server version written at `seq` in epoch `epoch`.
    func synced(at seq: Int64, in epoch: String = before) -> Item {
        var item = synced
        item.serverVersion = ServerVersion(writtenAt: seq, in: epoch)
        return item
    }

    @Test func anItemTheRestoredServerLacksIsSentAgainAsACreate() {
        // Written at 30; the backup the server was restored from stopped at 20.
        var local = LocalItem(id: itemID, item: synced(at: 30))
        var reconciler = reconciler()
        reconciler.reconcile(snapshot: nil, lineage: ServerVersion([Self.before: 20]), to: &local)
        #expect(local.ops.map(\.op.kind) == [.create])
        #expect(local.ops.first?.op.basis == ServerVersion(writtenAt: 30, in: Self.before))
        #expect(local.item?.rev == 0)
        #expect(local.item?.syncState == .pending)
        #expect(reconciler.summary.resent == 1)
    }

    @Test func anItemMissingFromTheSnapshotOtherwiseWasDeletedThere() {
        var local = LocalItem(id: itemID, item: synced(at: 30))
        var reconciler = reconciler()
        reconciler.reconcile(snapshot: nil, lineage: ServerVersion([Self.before: 50]), to: &local)
        #expect(local.item?.deleted == true)
        #expect(local.ops.isEmpty)
    }

    /// Issue: after an epoch renew with no data change, a device that never edited an item
    /// another device deleted re-sent it and then conflicted forever.
    @Test func aDeleteElsewhereBeforeAnEpochRenewIsTakenNotResent() {
        var local = LocalItem(id: itemID, item: synced(at: 30))
        var reconciler = reconciler()
        // The server kept everything of the old epoch (renew only): it holds version 30.
        reconciler.reconcile(snapshot: nil, lineage: ServerVersion([Self.before: 41]), to: &local)
        #expect(local.item?.deleted == true)
        #expect(local.ops.isEmpty)
        #expect(local.conflict == nil)
        #expect(reconciler.summary.resent == 0)
    }

    @Test func aCopyTheServerLostIsMergedOverTheNewestVersionBothHold() throws {
        // This device holds version 30 (title "Newer"); the server was restored to 20, where the
        // item was as `synced`, and someone has since pinned it there.
        var newer = synced(at: 30)
        newer.title = "Newer"
        newer.rev = 9
        var local = LocalItem(id: itemID, item: newer)
        var remote = try server([.pinned: .bool(true)], rev: 5)
        remote.version = ServerVersion(writtenAt: 3, in: Self.after, after: ServerVersion([Self.before: 12]))
        var reconciler = reconciler(knowing: [newer, synced(at: 12)])
        reconciler.reconcile(snapshot: remote, lineage: ServerVersion([Self.before: 20]), to: &local)
        #expect(local.ops.map(\.op.kind) == [.update])
        #expect(local.ops.first?.op.baseRev == 5)
        #expect(local.ops.first?.op.baseVersion == remote.version)
        #expect(local.ops.first?.op.basis == newer.serverVersion)
        #expect(local.ops.first?.op.fields?[.title]?.to == .string("Newer"))
        #expect(local.ops.first?.op.fields?[.pinned] == nil, "the server's own change is not sent back")
        #expect(local.item?.title == "Newer")
        #expect(local.item?.pinned == true)
        #expect(local.item?.rev == 5)
        #expect(local.conflict == nil)
    }

    /// Issue: B held a copy the restore lost; A re-sent a newer one (with a line B never saw);
    /// B's older copy overwrote it. Now B sees the server's version already holds its own.
    @Test func anOlderCopyNeverOverwritesTheVersionAnotherDeviceSentAgain() throws {
        var older = synced(at: 30)
        older.body = "line1\nline2\nline3\n"
        var local = LocalItem(id: itemID, item: older)
        var resent = try server([.body: .string("line1\nline2\nline3\nline4\n")], rev: 1)
        resent.version = ServerVersion(writtenAt: 2, in: Self.after, after: ServerVersion([Self.before: 40]))
        var reconciler = reconciler()
        reconciler.reconcile(snapshot: resent, lineage: ServerVersion([Self.before: 10]), to: &local)
        #expect(local.ops.isEmpty)
        #expect(local.item?.body == "line1\nline2\nline3\nline4\n")
        #expect(local.item?.rev == 1)
        #expect(local.item?.serverVersion == resent.version)
        #expect(reconciler.summary.resent == 0)
    }

    /// Issue: A's append was applied but its answer lost; A then deleted the item; after an
    /// epoch renew A's sync reported "deleted here, edited elsewhere" for its own edit.
    @Test func anAppliedOpWhoseAnswerWasLostIsNotMistakenForAnEditElsewhere() throws {
        let appended = try synced.applying([.body: .string("one\ntwo\nthree\nfour\n")], now: t0)
        let append = Op(
            id: ids.next(), item: itemID, kind: .update, baseRev: 3, fields: appended.changes(since: synced))
        let delete = Op(id: ids.next(), item: itemID, kind: .delete, baseRev: 3)
        var deleted = appended
        deleted.deleted = true
        var local = LocalItem(
            id: itemID, item: deleted,
            ops: [
                OutboxOp(seq: 1, op: append, state: .pending, attempts: 1, createdAt: t0),
                OutboxOp(seq: 2, op: delete, createdAt: t0),
            ])
        var remote = ChangeItem(appended)
        remote.rev = 4
        var reconciler = reconciler()
        reconciler.reconcile(snapshot: remote, lineage: nil, to: &local)
        #expect(local.conflict == nil)
        #expect(local.ops.map(\.op.kind) == [.delete])
        #expect(local.ops.first?.op.baseRev == 4)
        #expect(local.item?.deleted == true)
    }

    @Test func baseUndoesTheUnsentOpsNewestFirst() throws {
        var local = try edited([.title: .string("Oat milk")])
        let second = Op(
            id: ids.next(), item: itemID, kind: .update, baseRev: 3,
            fields: [
                .title: FieldChange(from: .string("Oat milk"), to: .string("Soy milk")),
                .pinned: FieldChange(from: .bool(false), to: .bool(true)),
            ])
        local.ops.append(OutboxOp(seq: 2, op: second, createdAt: t0))
        local.item?.title = "Soy milk"
        local.item?.pinned = true
        let base = try #require(SyncReconciler.base(of: local.item!, undoing: local.activeOps, now: t0))
        #expect(base.fieldValues == synced.fieldValues)
        #expect(base.rev == 3)
    }
}
