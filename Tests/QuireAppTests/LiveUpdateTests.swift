import Foundation
import QuireApp
import QuireCore
import QuireStore
import QuireTestSupport
import QuireUI
import Synchronization
import TerminalUI
import Testing

@Suite struct LiveUpdateTests {
    @Test func aWriteThroughAnotherConnectionShowsUpWithoutAKey() throws {
        let app = try AppHarness(items: AppHarness.entries(5))
        let other = try AppDatabase.open(path: app.store.path)
        let started = Date()
        try other.create(NewItem(title: "Written elsewhere"))
        #expect(app.waitFor(timeout: 2) { app.text.contains("Written elsewhere") })
        #expect(Date().timeIntervalSince(started) < 0.5)
    }

    /// An upload records its progress in the store chunk after chunk: each commit makes the
    /// poll read the list again, and none of it shows on the list. No frame is rendered for
    /// them (they held the UI queue, and keys waited); a commit that shows is drawn.
    @Test func aCommitThatShowsNothingNewDrawsNoFrame() throws {
        let app = try AppHarness(items: AppHarness.entries(5))
        let other = try AppDatabase.open(path: app.store.path)
        let frames = { app.runtime.queue.sync { app.runtime.framesDrawn } }
        let before = frames()
        for sent in 1...5 {
            try other.recordTransfer(.uploading(sentBytes: Int64(sent) << 20), of: String(repeating: "a", count: 64))
            app.pollAndWait()
        }
        #expect(frames() == before, "\(frames() - before) frames drawn for commits that show nothing")
        try other.create(NewItem(title: "Written elsewhere"))
        app.pollAndWait()
        #expect(app.text.contains("Written elsewhere"))
        #expect(frames() > before)
    }

    /// An upload commits its progress at every chunk, and a list read for each took the cores
    /// the keys wanted: a commit of sync's own records only reads no page, yet the item's view
    /// shows the new progress, and the next commit that shows is read and drawn.
    @Test func aCommitOfSyncRecordsOnlyReadsNoPageYetTheFileShowsItsProgress() throws {
        let reads = CountingSource.Reads()
        let app = try AppHarness(
            items: [ImportEntry(kind: .note, title: "Trip", createdAt: Date(timeIntervalSince1970: 1_790_000_000))],
            source: { CountingSource(base: StoreItemSource(store: $0), reads: reads) },
            prepare: { _, directory in
                try Data(repeating: 7, count: 4 << 20).write(to: URL(fileURLWithPath: directory + "/tickets.pdf"))
            })
        app.attachInTheItemView(app.directory + "/tickets.pdf")
        let item = try #require(try app.store.items(matching: .live).first)
        let file = try #require(item.attachments.first)

        let other = try AppDatabase.open(path: app.store.path)
        let before = reads.pages
        let countsBefore = reads.now
        for (sent, shown) in [(1 << 20, "uploading 25%"), (2 << 20, "uploading 50%")] {
            try other.recordTransfer(.uploading(sentBytes: Int64(sent)), of: file.hash)
            app.pollAndWait()
            #expect(app.text.contains(shown), "\(app.text)")
        }
        #expect(reads.pages == before, "\(reads.pages - before) pages read for an upload's progress")
        #expect(reads.now == countsBefore, "the outbox's counts read again for an upload's progress")

        _ = try other.update(item.id, fields: [.title: .text("Trip to Lyon")])
        app.pollAndWait()
        #expect(reads.pages > before, "an edit elsewhere is read")
        #expect(app.text.contains("Trip to Lyon"), "\(app.text)")
    }

    /// The editor keeps its text in the store 300 ms after each key: the poll sees each of
    /// those commits, and a list read for each took the cores the keys wanted.
    @Test func typingInTheEditorReadsNoPageForItsDrafts() throws {
        let reads = CountingSource.Reads()
        let app = try AppHarness(
            items: AppHarness.entries(5), source: { CountingSource(base: StoreItemSource(store: $0), reads: reads) },
            keepsDrafts: true)
        app.press(.character("a"))
        let before = reads.pages
        for word in ["Tuesday", " morning"] {
            app.type(word)
            #expect(
                try app.waitFor { try app.store.drafts().first?.title.hasSuffix(word) == true },
                "the draft was kept: \((try? app.store.drafts()) ?? [])")
            app.pollAndWait()
        }
        #expect(reads.pages == before, "\(reads.pages - before) pages read for the editor's drafts")
    }

    /// Counts the reads of the outbox's counts (`now`) and of the list's pages, over the real
    /// store's source.
    struct CountingSource: WrappedItemSource {
        final class Reads: Sendable {
            let count = Atomic<Int>(0)
            let pageCount = Atomic<Int>(0)
            var now: Int { count.load(ordering: .sequentiallyConsistent) }
            var pages: Int { pageCount.load(ordering: .sequentiallyConsistent) }
        }
        let base: any ItemSource
        let reads: Reads
        func counts() throws -> StoreCounts {
            reads.count.add(1, ordering: .sequentiallyConsistent)
            return try base.counts()
        }
        func page(_ query: ListQuery, offset: Int, limit: Int) throws -> ItemWindow {
            try page(query, offset: offset, limit: limit, totalMayBeStale: false)
        }
        func page(_ query: ListQuery, offset: Int, limit: Int, totalMayBeStale: Bool) throws -> ItemWindow {
            reads.pageCount.add(1, ordering: .sequentiallyConsistent)
            return try base.page(query, offset: offset, limit: limit, totalMayBeStale: totalMayBeStale)
        }
    }

    /// A poll that sees a commit tells sync and the status bar from one read of the counts:
    /// it runs on the UI queue, at every commit, ten times a second while a file uploads.
    @Test func aPollThatSeesACommitReadsTheCountsOnce() throws {
        let reads = CountingSource.Reads()
        let app = try AppHarness(
            items: AppHarness.entries(5), source: { CountingSource(base: StoreItemSource(store: $0), reads: reads) })
        let other = try AppDatabase.open(path: app.store.path)
        let before = reads.now
        try other.create(NewItem(title: "Written elsewhere"))
        app.pollAndWait()
        #expect(app.text.contains("Written elsewhere"))
        #expect(app.text.contains("6 pending"), "the status bar has the new count")
        #expect(reads.now - before == 1)
    }

    @Test func pagingMayReuseTheLastCountButARefreshCountsAgain() throws {
        let store = try AppDatabase.temporary(environment: .live)
        _ = try store.importItems((0..<3).map { ImportEntry(title: "Item \($0)") })
        let source = StoreItemSource(store: store)
        #expect(try source.page(ListQuery(), offset: 0, limit: 10).total == 3)
        try store.create(NewItem(title: "One more"))
        // A key paging through the list does not wait for a recount after every commit ...
        #expect(try source.page(ListQuery(), offset: 0, limit: 10, totalMayBeStale: true).total == 3)
        // ... the refresh that follows the commit counts again, and paging sees that count.
        #expect(try source.page(ListQuery(), offset: 0, limit: 10, totalMayBeStale: false).total == 4)
        #expect(try source.page(ListQuery(), offset: 0, limit: 10, totalMayBeStale: true).total == 4)
    }

    @Test func theSelectionStaysOnItsItemWhenRowsArrive() throws {
        let app = try AppHarness(items: AppHarness.entries(10))
        app.press(.character("j"), .character("j"))
        let selected = try #require(app.state.list.selectedID)
        // Another writer whose clock is later, so its items are newer and land on top.
        let other = try AppDatabase.open(
            path: app.store.path, environment: .deterministic(start: Date(timeIntervalSince1970: 1_900_000_000)))
        try other.create(NewItem(title: "New one"))
        try other.create(NewItem(title: "Newer one"))
        #expect(app.waitFor { app.state.list.total == 12 })
        app.runtime.waitUntilIdle()
        #expect(app.state.list.selectedID == selected)
        #expect(app.state.list.selection == 4)
        #expect(app.selectedRow?.contains("Item 8") == true)
    }

    @Test func theSelectionStaysOnItsItemWhenAWholeSyncPageArrivesAboveIt() throws {
        let app = try AppHarness(items: AppHarness.entries(10))
        app.press(.character("j"), .character("j"))
        let selected = try #require(app.state.list.selectedID)
        // As a pull commits a page: 1,000 newer items in one transaction, far beyond the
        // neighbourhood the app looks in first.
        let other = try AppDatabase.open(
            path: app.store.path, environment: .deterministic(start: Date(timeIntervalSince1970: 1_900_000_000)))
        _ = try other.importItems((0..<1000).map { ImportEntry(title: "Pulled \($0)") })
        #expect(app.waitFor { app.state.list.total == 1010 })
        app.runtime.waitUntilIdle()
        #expect(app.state.list.selectedID == selected)
        #expect(app.state.list.selection == 1002)
        #expect(app.selectedRow?.contains("Item 8") == true)
    }

    @Test func aCommandInAnotherProcessShowsUp() throws {
        let quire = try #require(BuiltProduct.path("quire"), "the quire executable is not built next to the tests")
        let app = try AppHarness(items: AppHarness.entries(2))
        var environment = ProcessInfo.processInfo.environment
        environment["QUIRE_HOME"] = app.directory
        let added = try ChildRun.run(quire, ["add", "Added by the CLI", "--task"], environment: environment)
        #expect(added.status == 0)
        #expect(app.waitFor(timeout: 2) { app.text.contains("[ ] Added by the CLI") })
    }
}
