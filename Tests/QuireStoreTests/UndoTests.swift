import Foundation
import GRDB
import QuireCore
import Testing

@testable import QuireStore

/// `u` reads what to take back from the history in the database file, so it survives a restart
/// and covers every local action, newest first.
@Suite struct UndoTests {
    @Test func undoSurvivesAReopenAndTakesActionsBackNewestFirst() throws {
        let directory = try StoreFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/quire.db"
        var store = try AppDatabase.open(path: path, environment: .deterministic(seed: 3))
        let item = try store.create(NewItem(kind: .task, title: "Buy milk"))
        try store.update(item.id, fields: [.title: .string("Buy oat milk")])
        try store.setDone([item.id], true)
        try store.delete([item.id])
        try store.close()

        store = try AppDatabase.open(path: path, environment: .deterministic(seed: 4))
        defer { try? store.close() }
        #expect(try store.undoLastAction()?.plan == .undelete)
        #expect(try store.item(item.id)?.deleted == false)
        #expect(try store.undoLastAction()?.plan == .revert([.done: .bool(false)]))
        #expect(try store.item(item.id)?.done == false)
        let title = try store.undoLastAction()
        #expect(title?.plan == .revert([.title: .string("Buy milk")]) && title?.text == "Undone: change to “Buy milk”")
        #expect(try store.undoLastAction()?.plan == .remove)
        #expect(try store.item(item.id)?.deleted == true)
        #expect(try store.undoLastAction() == nil)
        // Every undo was an ordinary local version naming the action it took back; the item
        // never reached the server, so taking its creation back leaves nothing to send.
        #expect(try StoreFixture.count(store, "SELECT count(*) FROM itemVersion WHERE undoes IS NOT NULL") == 4)
        #expect(try store.outbox(for: item.id).isEmpty)
    }

    @Test func anUndoIsAChangeThatSyncs() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "Plan"))
        // As if the server had acknowledged the create: the next change is an op of its own.
        try StoreFixture.execute(store, "DELETE FROM outbox")
        try StoreFixture.execute(store, "UPDATE item SET rev = 1, syncState = 'synced'")
        try store.update(item.id, fields: [.body: .string("step one\n")])
        try StoreFixture.execute(store, "UPDATE outbox SET attempts = 1")  // sent once: no folding
        #expect(try store.undoLastAction()?.plan == .revert([.body: .string("")]))
        let ops = try store.outbox(for: item.id)
        #expect(ops.count == 2)
        #expect(ops.last?.op.fields?[.body] == FieldChange(from: .string("step one\n"), to: .string("")))
        #expect(try store.item(item.id)?.syncState == .pending)
    }

    @Test func anActionTheItemOutlivedIsReportedAndTheNextUndoGoesOn() throws {
        let store = try StoreFixture.make()
        let first = try store.create(NewItem(title: "First"))
        let second = try store.create(NewItem(title: "Second"))
        try store.update(second.id, fields: [.title: .string("Second, renamed")])
        // Another device deletes it: a version from the server, not an action of this device.
        try store.writer.write { db in
            var deleted = try #require(try ItemRow.fetch(id: second.id, in: db))
            deleted.deleted = true
            try ItemRow.update(deleted, in: db)
            try History.insert(deleted, origin: .remote, opID: nil, at: Date(), in: db)
        }
        let refused = try store.undoLastAction()
        #expect(refused?.plan == .cannot("it was deleted since"))
        #expect(try store.item(second.id)?.title == "Second, renamed")
        #expect(try store.undoLastAction()?.plan == .cannot("it is deleted already"))
        #expect(try store.undoLastAction()?.plan == .remove)
        #expect(try store.item(first.id)?.deleted == true)
        #expect(try store.undoLastAction() == nil)
    }

    @Test func importsAndServerVersionsAreNotActions() throws {
        let store = try StoreFixture.make()
        _ = try store.importItems((0..<3).map { ImportEntry(title: "Imported \($0)") })
        #expect(try store.undoLastAction() == nil)
    }
}
