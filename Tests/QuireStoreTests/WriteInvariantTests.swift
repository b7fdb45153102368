import Foundation
import GRDB
import QuireCore
import Testing

@testable import QuireStore

/// Every local change writes the item row, one history version and its outbox op together.
@Suite struct WriteInvariantTests {
    func counts(_ store: AppDatabase, _ id: String) throws -> (versions: Int, ops: Int) {
        (
            try StoreFixture.count(store, "SELECT count(*) FROM itemVersion WHERE itemId = ?", [id]),
            try StoreFixture.count(store, "SELECT count(*) FROM outbox WHERE itemId = ?", [id])
        )
    }

    @Test func createWritesItemVersionAndCreateOp() throws {
        let store = try StoreFixture.make()
        let item = try store.create(
            NewItem(kind: .task, title: "  Buy milk ", tags: ["home", "errands", "home"], priority: .high))
        #expect(item.title == "Buy milk")
        #expect(item.tags == ["errands", "home"])
        #expect(item.syncState == .pending && item.rev == 0)
        #expect(try store.item(item.id) == item)
        let history = try store.history(of: item.id)
        #expect(history.count == 1)
        #expect(history[0].item.title == "Buy milk" && history[0].origin == .local)
        let ops = try store.outbox(for: item.id)
        #expect(ops.count == 1)
        let op = try #require(ops.first)
        #expect(op.op.kind == .create && op.op.baseRev == 0 && op.state == .pending)
        #expect(history[0].opID == op.op.id)
        #expect(Set(op.op.fields?.keys ?? [:].keys) == Set(Field.allCases))
        #expect(op.op.fields?[.title] == FieldChange(from: .null, to: .string("Buy milk")))
        #expect(op.op.fields?[.tags]?.to == .strings(["errands", "home"]))
    }

    @Test func everyUpdateAddsAVersionAndUpdatedAtMoves() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "One"))
        let edited = try store.update(item.id, fields: [.title: .string("Two"), .body: .string("text")])
        #expect(edited.title == "Two" && edited.body == "text")
        #expect(edited.updatedAt > item.updatedAt && edited.createdAt == item.createdAt)
        #expect(try counts(store, item.id) == (2, 1))
        let unchanged = try store.update(item.id, fields: [.title: .string("Two")])
        #expect(unchanged == edited)
        #expect(try counts(store, item.id) == (2, 1), "a change to the same value writes nothing")
    }

    /// The badge follows the outbox by the rule sync uses (`SyncBadge`): a change the server
    /// refused keeps showing as failed (`✗`) through later edits, until it is retried or dropped.
    @Test func anItemWithARefusedChangeStillShowsFailedAfterAnEdit() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "Refused"))
        try StoreFixture.execute(
            store, "UPDATE outbox SET state = 'rejected', attempts = 1, lastError = 'no' WHERE itemId = ?", [item.id])
        let edited = try store.update(item.id, fields: [.title: .string("Edited")])
        #expect(edited.syncState == .error)
        #expect(try store.item(item.id)?.syncState == .error)
        #expect(
            try store.outboxCounts() == OutboxCounts(pending: 1, inFlight: 0, rejected: 1), "the edit still travels")
    }

    @Test func aRejectedValueChangesNothing() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "One"))
        #expect(throws: StoreError.invalid(.emptyTitle)) { try store.update(item.id, fields: [.title: .string("  ")]) }
        #expect(throws: StoreError.invalid(.invalidDate("2026-02-30"))) {
            try store.update(item.id, fields: [.title: .string("New"), .due: .string("2026-02-30")])
        }
        let big = String(repeating: "x", count: Validation.maxBodyBytes + 1)
        #expect(throws: StoreError.invalid(.bodyTooLarge(bytes: big.utf8.count))) {
            try store.update(item.id, fields: [.body: .string(big)])
        }
        #expect(try store.item(item.id) == item)
        #expect(try counts(store, item.id) == (1, 1))
    }

    @Test func whatTheServerWouldRefuseIsRefusedAtWriteTime() throws {
        let store = try StoreFixture.make()
        let title = String(repeating: "t", count: 80 << 10)
        let body = String(repeating: "b", count: Validation.maxBodyBytes)
        let size = title.utf8.count + body.utf8.count
        #expect(size > Validation.maxItemBytes, "the server refuses this item")
        // The title alone passes its own limit (4 KiB) first.
        #expect(throws: StoreError.invalid(.titleTooLong(bytes: title.utf8.count))) {
            try store.create(NewItem(title: title, body: body))
        }
        #expect(try store.items(matching: .live).isEmpty)
        let item = try store.create(NewItem(title: "small", body: body))
        #expect(throws: StoreError.invalid(.titleTooLong(bytes: title.utf8.count))) {
            try store.update(item.id, fields: [.title: .string(title)])
        }
        #expect(try store.item(item.id) == item)
        #expect(try counts(store, item.id) == (1, 1))
        #expect(throws: StoreError.self) { try store.importItems([ImportEntry(title: title, body: body)]) }
        #expect(try store.items(matching: .live).map(\.id) == [item.id])
    }

    @Test func aBatchWithOneBadIdChangesNoneOfIt() throws {
        let store = try StoreFixture.make()
        let task = try store.create(NewItem(kind: .task, title: "Task"))
        let note = try store.create(NewItem(title: "Note"))
        #expect(throws: StoreError.notATask(id: note.id, title: "Note")) {
            try store.setDone([task.id, note.id], true)
        }
        #expect(try store.item(task.id)?.done == false)
        #expect(try counts(store, task.id) == (1, 1))
        #expect(throws: StoreError.notFound(id: "0000")) { try store.delete([task.id, "0000"]) }
        #expect(try store.item(task.id)?.deleted == false)
    }

    @Test func doneSetsDoneAtAndReopenClearsIt() throws {
        let store = try StoreFixture.make()
        let task = try store.create(NewItem(kind: .task, title: "Task"))
        let done = try #require(try store.setDone([task.id], true).first)
        #expect(done.done && done.doneAt == done.updatedAt)
        let open = try #require(try store.setDone([task.id], false).first)
        #expect(!open.done && open.doneAt == nil)
    }

    @Test func editingADeletedItemIsRefused() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "Gone"))
        try store.delete([item.id])
        #expect(throws: StoreError.deleted(id: item.id, title: "Gone")) {
            try store.update(item.id, fields: [.title: .string("Back")])
        }
    }

    @Test func theSchemaRefusesRowsThatBreakTheRules() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "Valid"))
        #expect(throws: DatabaseError.self) {
            try StoreFixture.execute(store, "UPDATE item SET title = '' WHERE id = ?", [item.id])
        }
        #expect(throws: DatabaseError.self) { try StoreFixture.execute(store, "UPDATE item SET priority = 'urgent'") }
        #expect(throws: DatabaseError.self) {
            try StoreFixture.execute(
                store,
                "INSERT INTO outbox (opId, itemId, kind, baseRev, fields, createdAt) VALUES ('x', 'no-such-item', 'delete', 0, NULL, 'now')"
            )
        }
    }

    @Test func importIsOneTransactionAndReimportChangesNothing() throws {
        let store = try StoreFixture.make()
        let entries = [
            ImportEntry(
                id: "0193a9d2-7fff-7000-8000-00000000abcd", kind: .task, title: "Imported", tags: ["a"], done: true),
            ImportEntry(title: "Fresh note", body: "hello"),
            ImportEntry(id: "0193a9d2-7fff-7000-8000-00000000abce", title: "Old tombstone", deleted: true),
        ]
        let first = try store.importItems(entries)
        #expect(first.created == 3)
        let task = try #require(try store.item("0193a9d2-7fff-7000-8000-00000000abcd"))
        #expect(task.done && task.doneAt != nil)
        #expect(try StoreFixture.count(store, "SELECT count(*) FROM outbox") == 2, "the tombstone needs no op")
        #expect(try StoreFixture.count(store, "SELECT count(*) FROM itemVersion WHERE origin = 'import'") == 3)
        let op = try #require(try store.outbox(for: task.id).first)
        #expect(
            op.op.kind == .create && op.op.fields?[.title]?.to == .string("Imported")
                && op.op.fields?.count == Field.allCases.count)
        #expect(op.op.fields?[.done]?.to == .bool(true) && op.op.fields?[.tags]?.to == .strings(["a"]))
        let version = try #require(try store.history(of: task.id).first)
        var expected = task
        expected.syncState = .synced
        #expect(version.item == expected && version.origin == .import && version.opID == op.op.id)
        #expect(try store.search("imported").map(\.id) == [task.id])
        let again = try store.importItems([entries[0]])
        #expect(again.unchanged == 1 && again.created == 0)
        let bad = [ImportEntry(title: "Would be fine"), ImportEntry(title: " ")]
        #expect(throws: StoreError.invalid(.emptyTitle)) { try store.importItems(bad) }
        #expect(try store.count(matching: ItemFilter(includeDeleted: true)) == 3)
    }
}

/// The running tallies (migration "v9 tallies") that the list total and the sync summary read
/// must agree with the rows after any mix of writes, whatever path made them.
@Suite struct TallyTests {
    @Test func talliesFollowEveryKindOfWrite() throws {
        let store = try StoreFixture.make()
        var random = SeededRandom(seed: 99)
        var ids: [String] = []
        let filters: [ItemFilter] = [
            .live, .open, ItemFilter(status: .done), ItemFilter(kind: .task), ItemFilter(kind: .note, status: .open),
            ItemFilter(includeDeleted: true), ItemFilter(onlyDeleted: true), ItemFilter(kind: .task, status: .done),
        ]
        for step in 0..<400 {
            let some = { () -> String in ids[Int(random.next() % UInt64(ids.count))] }
            switch ids.isEmpty ? 0 : random.next() % 9 {
            case 0, 1:
                let kind: ItemKind = random.next() % 2 == 0 ? .note : .task
                ids.append(try store.create(NewItem(kind: kind, title: "item \(step)")).id)
            case 2: _ = try? store.setDone([some()], random.next() % 2 == 0)
            case 3: _ = try? store.delete([some()])
            case 4: _ = try? store.restore([some()])
            case 5: _ = try? store.update(some(), fields: [.kind: .string(random.next() % 2 == 0 ? "note" : "task")])
            case 6:
                let entries = (0..<3).map { ImportEntry(kind: .task, title: "imported \(step) \($0)", done: $0 == 1) }
                _ = try store.importItems(entries)
            case 7:
                // What sync does to ops: send them, have them refused, drop them.
                let states = ["in-flight", "rejected", "pending"]
                try StoreFixture.execute(
                    store,
                    "UPDATE outbox SET state = ? WHERE seq IN (SELECT seq FROM outbox ORDER BY random() LIMIT 3)",
                    [states[Int(random.next() % 3)]])
            default:
                try StoreFixture.execute(store, "DELETE FROM outbox WHERE seq IN (SELECT seq FROM outbox LIMIT 2)")
            }
            #expect(try StoreFixture.count(store, AppDatabase.talliesAgreeSQL) == 1, "step \(step)")
        }
        for filter in filters {
            let (condition, arguments) = try store.writer.read { try filter.whereClause(in: $0) }
            let rows = try StoreFixture.count(store, "SELECT count(*) FROM item WHERE \(condition)", arguments)
            #expect(try store.count(matching: filter) == rows, "\(filter)")
        }
        let outbox = try StoreFixture.count(store, "SELECT count(*) FROM outbox WHERE state = 'pending'")
        #expect(try store.outboxCounts().pending == outbox)
        let deleted = try store.count(matching: ItemFilter(onlyDeleted: true))
        #expect(outbox > 0 && deleted > 0, "the run reached both kinds of state")
    }
}

@Suite struct FarPageTests {
    /// A page far down the list is read from the other end (the total comes from the tallies);
    /// it must be exactly the page read from the top, pinned items and filters included.
    @Test func pagesFromTheEndEqualPagesFromTheTop() throws {
        let store = try StoreFixture.make()
        let count = AppDatabase.reverseReadThreshold * 2 + 400
        _ = try store.importItems(
            (0..<count).map { index in
                ImportEntry(
                    kind: index % 3 == 0 ? .note : .task, title: "item \(index)", done: index % 3 == 1,
                    pinned: index % 997 == 0)
            })
        for filter in [ItemFilter.live, .open, ItemFilter(kind: .task)] {
            let all = try store.items(matching: filter)
            let total = try store.count(matching: filter)
            #expect(all.count == total)
            for offset in [
                0, AppDatabase.reverseReadThreshold + 1, total / 2 + 1, total - 30, total - 1, total, total + 9,
            ] {
                let page = try store.items(matching: filter, limit: 30, offset: offset)
                let expected = Array(all.dropFirst(offset).prefix(30))
                #expect(page.map(\.id) == expected.map(\.id), "\(filter) at \(offset)")
            }
        }
    }
}
