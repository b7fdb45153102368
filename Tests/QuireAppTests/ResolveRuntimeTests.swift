import Foundation
import QuireCore
import QuireProtocol
import QuireStore
import QuireSync
import QuireUI
import TerminalUI
import Testing

/// The resolve screen through the real runtime and a real store, with the conflict made the
/// way sync makes it: the server's version arrives over a local change through the ledger.
@Suite(.serialized) struct ResolveRuntimeTests {
    static let id = "0193a9d2-0040-7000-8000-000000000000"
    static let baseBody = "milk\nbread\ncheese\neggs\nflour\n"

    /// Pulls `remote` as the server's version through the sync ledger.
    static func pull(_ remote: Item, cursor: String, into store: AppDatabase) throws {
        let live = StoreEnvironment.live
        let ledger = SyncLedger(storage: store.syncStorage(), now: live.now, newID: live.newID)
        _ = try ledger.applyPage(
            SyncResponse(
                results: [], changes: [ChangeItem(remote)], cursor: cursor, more: false, epoch: "test-epoch",
                stateHash: "0"))
    }

    /// An item synced at revision 1, then changed here with `local` and on the server with `remote`.
    static func conflict(in store: AppDatabase, local: [Field: FieldValue], remote: (inout Item) -> Void) throws {
        let base = Item(
            id: id, kind: .task, title: "Groceries", body: baseBody,
            createdAt: Date(timeIntervalSince1970: 1_790_000_000), rev: 1, syncState: .synced)
        try pull(base, cursor: "1", into: store)
        _ = try store.update(id, fields: local)
        var server = base
        remote(&server)
        server.rev = 2
        server.updatedAt = Date(timeIntervalSince1970: 1_790_000_100)
        try pull(server, cursor: "2", into: store)
    }

    @Test func choosingPerFieldAndHunkAndAcceptingWritesANewLocalChange() throws {
        let harness = try AppHarness()
        try Self.conflict(
            in: harness.store,
            local: [
                .title: .string("Groceries for Sunday"), .priority: .string("low"),
                .body: .string("milk\nrye bread\ncheese\neggs\nflour (whole wheat)\n"),
            ],
            remote: { item in
                item.title = "Groceries 買い物"
                item.priority = .high
                item.body = "milk\n食パン\ncheese\neggs\nflour x2\n"
            })
        #expect(try harness.store.conflicts().map(\.fields) == [[.title, .body, .priority]])
        #expect(harness.waitFor { harness.state.sync.needsReview == 1 })

        harness.press(.character("c"))
        let resolve = try #require(harness.state.resolve)
        #expect(resolve.rows == [.field(.title), .field(.priority), .hunk(0), .hunk(1)])
        #expect(harness.text.contains("Resolve Groceries for Sunday"))
        #expect(harness.text.contains("1 of 4 conflicts"))

        // Title local, priority remote, the first hunk both, the second remote.
        harness.press(.character("l"), .character("r"), .character("b"), .character("r"), .enter)
        #expect(harness.waitFor { harness.state.screen == .list })
        #expect(harness.text.contains("Resolved"))

        let item = try #require(try harness.store.item(Self.id))
        #expect(item.title == "Groceries for Sunday")
        #expect(item.priority == .high)
        #expect(item.body == "milk\nrye bread\n食パン\ncheese\neggs\nflour x2\n")
        #expect(item.syncState == .pending)
        #expect(item.rev == 2)
        #expect(try harness.store.conflicts().isEmpty)

        // What goes to the server: the difference to its version, against its revision.
        let ops = try harness.store.outbox(for: Self.id).map(\.op)
        #expect(!ops.isEmpty)
        #expect(ops.allSatisfy { $0.baseRev == 2 && $0.kind == .update })
        var sent: [Field: FieldValue] = [:]
        for op in ops { for (field, change) in op.fields ?? [:] { sent[field] = change.to } }
        #expect(sent[.title] == .string("Groceries for Sunday"))
        #expect(sent[.body] == .string("milk\nrye bread\n食パン\ncheese\neggs\nflour x2\n"))
        #expect(sent[.priority] == nil)
        #expect(harness.waitFor { harness.state.sync.needsReview == 0 })

        // Undo takes the resolution back as an ordinary change: this device's values again.
        harness.press(.character("u"))
        let undone = try #require(try harness.store.item(Self.id))
        #expect(undone.priority == .low)
        #expect(undone.body == "milk\nrye bread\ncheese\neggs\nflour (whole wheat)\n")
        #expect(undone.syncState == .pending)
        #expect(try harness.store.conflicts().isEmpty)
    }

    @Test func escapeLeavesTheConflictAsItWas() throws {
        let harness = try AppHarness()
        try Self.conflict(in: harness.store, local: [.title: .string("Mine")], remote: { $0.title = "Theirs" })
        #expect(harness.waitFor { harness.state.sync.needsReview == 1 })
        harness.press(.character("c"))
        #expect(harness.state.resolve != nil)
        // Esc after a choice asks first; `y` leaves without writing.
        harness.press(.character("R"), .escape)
        #expect(harness.state.question == .dropResolveChoices)
        harness.press(.character("y"))
        #expect(harness.state.screen == .list)
        #expect(try harness.store.conflicts().count == 1)
        #expect(try harness.store.item(Self.id)?.title == "Mine")
        #expect(try harness.store.item(Self.id)?.syncState == .needsReview)
    }

    @Test func acceptingTheServersDeleteDeletesTheItem() throws {
        let harness = try AppHarness()
        try Self.conflict(in: harness.store, local: [.title: .string("Groceries today")], remote: { $0.deleted = true })
        #expect(try harness.store.conflicts().count == 1)
        #expect(harness.waitFor { harness.state.sync.needsReview == 1 })
        harness.press(.character("c"))
        #expect(harness.state.resolve?.rows == [.deletion])
        #expect(harness.text.contains("accept the delete"))
        harness.press(.character("r"), .enter)
        #expect(harness.waitFor { harness.state.screen == .list })
        #expect(try harness.store.conflicts().isEmpty)
        #expect(try harness.store.item(Self.id)?.deleted != false)
    }

    @Test func resolvedElsewhereWhileOpenGoesBackToTheList() throws {
        let harness = try AppHarness()
        try Self.conflict(in: harness.store, local: [.title: .string("Mine")], remote: { $0.title = "Theirs" })
        #expect(harness.waitFor { harness.state.sync.needsReview == 1 })
        harness.press(.character("c"))
        #expect(harness.state.resolve != nil)
        // Another process (say `quire resolve --keep remote`) settles it meanwhile.
        let live = StoreEnvironment.live
        let ledger = SyncLedger(storage: harness.store.syncStorage(), now: live.now, newID: live.newID)
        #expect(try ledger.resolve(Self.id, keeping: .remote)?.title == "Theirs")
        #expect(harness.waitFor { harness.state.screen == .list })
        #expect(harness.waitFor { harness.text.contains("That item no longer needs review") })
    }

    @Test func nothingNeedingReviewSaysSo() throws {
        let harness = try AppHarness(items: AppHarness.entries(3))
        harness.press(.character("c"))
        #expect(harness.state.screen == .list)
        #expect(harness.text.contains("Nothing needs review"))
    }
}
