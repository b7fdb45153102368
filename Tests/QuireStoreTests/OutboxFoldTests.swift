import Foundation
import QuireCore
import Testing

@testable import QuireStore

@Suite struct OutboxFoldRuleTests {
    @Test func keepsEarliestFromAndLatestTo() {
        let existing: [Field: FieldChange] = [.title: FieldChange(from: .string("a"), to: .string("b"))]
        let folded = OutboxFold.fold(
            kind: .update, existing: existing,
            changes: [
                .title: FieldChange(from: .string("b"), to: .string("c")),
                .done: FieldChange(from: .bool(false), to: .bool(true)),
            ])
        #expect(
            folded == [
                .title: FieldChange(from: .string("a"), to: .string("c")),
                .done: FieldChange(from: .bool(false), to: .bool(true)),
            ])
    }

    @Test func anUpdateBackToTheStartDropsTheFieldAndThenTheOp() {
        let existing: [Field: FieldChange] = [
            .title: FieldChange(from: .string("a"), to: .string("b")),
            .pinned: FieldChange(from: .bool(false), to: .bool(true)),
        ]
        let once = OutboxFold.fold(
            kind: .update, existing: existing, changes: [.title: FieldChange(from: .string("b"), to: .string("a"))])
        #expect(once == [.pinned: FieldChange(from: .bool(false), to: .bool(true))])
        #expect(
            OutboxFold.fold(
                kind: .update, existing: once!, changes: [.pinned: FieldChange(from: .bool(true), to: .bool(false))])
                == nil)
    }

    @Test func aCreateKeepsEveryFieldAndTakesTheNewValues() {
        let existing: [Field: FieldChange] = [
            .title: FieldChange(from: .null, to: .string("a")), .due: FieldChange(from: .null, to: .null),
        ]
        let folded = OutboxFold.fold(
            kind: .create, existing: existing, changes: [.due: FieldChange(from: .null, to: .string("2026-01-01"))])
        #expect(folded?[.due] == FieldChange(from: .null, to: .string("2026-01-01")))
        let back = OutboxFold.fold(
            kind: .create, existing: folded!, changes: [.due: FieldChange(from: .string("2026-01-01"), to: .null)])
        #expect(back?[.due] == FieldChange(from: .null, to: .null), "a create never loses a field")
    }
}

/// The fold rule and the delete/restore rules as the store applies them.
@Suite struct OutboxStoreTests {
    func ops(_ store: AppDatabase, _ id: String) throws -> [OutboxOp] { try store.outbox(for: id) }

    @Test func updatesOfANeverSentItemFoldIntoItsCreate() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "a"))
        for title in ["ab", "abc", "abcd"] { try store.update(item.id, fields: [.title: .string(title)]) }
        try store.setPinned([item.id], true)
        let list = try ops(store, item.id)
        #expect(list.count == 1)
        #expect(list[0].op.kind == .create)
        #expect(list[0].op.fields?[.title] == FieldChange(from: .null, to: .string("abcd")))
        #expect(list[0].op.fields?[.pinned] == FieldChange(from: .null, to: .bool(true)))
        #expect(try store.history(of: item.id).count == 5, "history keeps every version even when ops fold")
    }

    @Test func neverFoldsIntoAnInFlightOrRejectedOp() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "a"))
        try StoreFixture.execute(store, "UPDATE outbox SET state = 'in-flight'")
        try store.update(item.id, fields: [.title: .string("b")])
        try store.update(item.id, fields: [.title: .string("c")])
        var list = try ops(store, item.id)
        #expect(list.map(\.op.kind) == [.create, .update])
        #expect(list[1].op.fields == [.title: FieldChange(from: .string("a"), to: .string("c"))])
        #expect(try store.item(item.id)?.syncState == .pending)
        try StoreFixture.execute(store, "UPDATE outbox SET state = 'rejected' WHERE kind = 'update'")
        try store.update(item.id, fields: [.title: .string("d")])
        list = try ops(store, item.id)
        #expect(list.map(\.op.kind) == [.create, .update, .update])
        #expect(list[2].op.fields == [.title: FieldChange(from: .string("c"), to: .string("d"))])
    }

    /// An op put back to pending after a lost answer may already be applied on the server:
    /// folding into it, or cancelling it, would lose the change or leave the server out of step.
    @Test func anOpSentOnceIsNeverFoldedIntoOrCancelled() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "a"))
        try StoreFixture.execute(store, "UPDATE outbox SET attempts = 1")
        try store.update(item.id, fields: [.title: .string("b")])
        #expect(try ops(store, item.id).map(\.op.kind) == [.create, .update])
        try StoreFixture.execute(store, "UPDATE outbox SET attempts = 1")
        try store.delete([item.id])
        #expect(try ops(store, item.id).map(\.op.kind) == [.create, .update, .delete], "the server may know the item")
        try StoreFixture.execute(store, "UPDATE outbox SET attempts = 1")
        try store.restore([item.id])
        #expect(try ops(store, item.id).map(\.op.kind) == [.create, .update, .delete, .create])
        #expect(try store.item(item.id)?.deleted == false)
    }

    @Test func anUpdateUndoneBeforeSendingLeavesNoOp() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "a"))
        try StoreFixture.execute(store, "DELETE FROM outbox")
        try StoreFixture.execute(store, "UPDATE item SET rev = 3, syncState = 'synced'")
        try store.update(item.id, fields: [.title: .string("b")])
        #expect(try ops(store, item.id).first?.op.baseRev == 3)
        #expect(try store.item(item.id)?.syncState == .pending)
        let back = try store.update(item.id, fields: [.title: .string("a")])
        #expect(try ops(store, item.id).isEmpty)
        #expect(back.syncState == .synced)
        #expect(try store.history(of: item.id).count == 3)
    }

    @Test func deletingANeverSentItemQueuesNothingAndRestoreQueuesACreate() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "draft"))
        try store.update(item.id, fields: [.body: .string("x")])
        let deleted = try #require(try store.delete([item.id]).first)
        #expect(deleted.deleted)
        #expect(try ops(store, item.id).isEmpty)
        let restored = try #require(try store.restore([item.id]).first)
        #expect(!restored.deleted && restored.body == "x")
        let list = try ops(store, item.id)
        #expect(list.map(\.op.kind) == [.create])
        #expect(list[0].op.fields?[.body]?.to == .string("x"))
    }

    @Test func deletingASyncedItemQueuesADeleteThatRestoreCancels() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "shared"))
        try StoreFixture.execute(store, "DELETE FROM outbox")
        try StoreFixture.execute(store, "UPDATE item SET rev = 5, syncState = 'synced'")
        try store.delete([item.id])
        var list = try ops(store, item.id)
        #expect(list.map(\.op.kind) == [.delete])
        #expect(list[0].op.baseRev == 5 && list[0].op.fields == nil)
        #expect(try store.item(item.id)?.syncState == .pending)
        try store.restore([item.id])
        list = try ops(store, item.id)
        #expect(list.isEmpty, "restoring before the delete was sent cancels it")
        #expect(try store.item(item.id)?.syncState == .synced)
    }

    @Test func restoreAfterASentDeleteQueuesACreateAgainstTheTombstone() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "shared"))
        try StoreFixture.execute(store, "DELETE FROM outbox")
        try StoreFixture.execute(store, "UPDATE item SET rev = 5, syncState = 'synced'")
        try store.delete([item.id])
        try StoreFixture.execute(store, "UPDATE outbox SET state = 'in-flight'")
        try store.restore([item.id])
        let list = try ops(store, item.id)
        #expect(list.map(\.op.kind) == [.delete, .create])
        #expect(list[1].op.baseRev == 5)
        #expect(try store.outboxCounts() == OutboxCounts(pending: 1, inFlight: 1, rejected: 0))
        #expect(try store.outbox().map(\.op.kind) == [.create])
        #expect(try store.outbox(state: nil).map(\.op.kind) == [.delete, .create])
    }
}
