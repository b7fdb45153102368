import Foundation
import QuireApp
import QuireCore
import QuireStore
import QuireSync
import QuireUI
import Synchronization
import TerminalUI
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The list's reads off the UI queue (a refresh after another writer committed, a new search)
/// run on a lane below the UI's priority, and start only once the frame that asked for them is
/// drawn: a scheduler trace of typing during an upload showed the UI's block that woke a
/// refresh held 3 to 5 ms while the refresh took the core.
@Suite(.serialized) struct BackgroundLaneTests {
    /// Where each read of a page ran: the thread's nice value and scheduling policy, and how
    /// many frames had been drawn when it began.
    struct Read: Equatable {
        var niceness: Int32
        var policy: Int32
        var framesDrawn: Int
    }

    /// The page reads seen and the frames drawn, from any thread.
    final class Recorder: Sendable {
        let reads = Mutex<[Read]>([])
        let frames = Atomic<Int>(0)
        var framesDrawn: Int { frames.load(ordering: .sequentiallyConsistent) }
        func takeReads() -> [Read] {
            reads.withLock { taken in
                defer { taken = [] }
                return taken
            }
        }
    }

    /// An item source that notes every page read, over the real store's.
    struct RecordingSource: WrappedItemSource {
        let base: any ItemSource
        let recorder: Recorder

        func page(_ query: ListQuery, offset: Int, limit: Int) throws -> ItemWindow {
            try page(query, offset: offset, limit: limit, totalMayBeStale: false)
        }
        func page(_ query: ListQuery, offset: Int, limit: Int, totalMayBeStale: Bool) throws -> ItemWindow {
            let read = Read(
                niceness: BackgroundThread.currentNiceness(), policy: sched_getscheduler(0),
                framesDrawn: recorder.framesDrawn)
            recorder.reads.withLock { $0.append(read) }
            return try base.page(query, offset: offset, limit: limit, totalMayBeStale: totalMayBeStale)
        }
    }

    /// Linux's number for SCHED_BATCH (Glibc's module leaves the constant out).
    static let batchPolicy: Int32 = 3

    @Test func aRefreshAndASearchReadOnTheLaneAfterTheirFrame() throws {
        let recorder = Recorder()
        let app = try AppHarness(
            items: (1...30).map { ImportEntry(title: "Item \($0)") },
            source: { RecordingSource(base: StoreItemSource(store: $0), recorder: recorder) })
        app.runtime.onFrame = { _ in recorder.frames.add(1, ordering: .sequentiallyConsistent) }

        // Another writer commits; the poll sees it and reads the list again.
        _ = recorder.takeReads()
        _ = try app.store.create(NewItem(title: "Written elsewhere"))
        let before = recorder.framesDrawn
        app.runtime.pollNow()
        #expect(app.runtime.waitUntilIdle())
        #expect(app.state.list.total == 31, "the refresh was applied")
        let refresh = recorder.takeReads()

        // A new search: its results are read off the UI queue too.
        app.press(.character("/"))
        _ = recorder.takeReads()
        let beforeSearch = recorder.framesDrawn
        app.type("Item 2")
        let search = recorder.takeReads()

        let own = BackgroundThread.currentNiceness()
        let lowered = max(own, BackgroundThread.niceness)
        #expect(lowered > own, "this test needs a process that is not at nice 10 or more already")
        #expect(!refresh.isEmpty && !search.isEmpty, "both read the store: \(refresh), \(search)")
        for read in refresh + search {
            #expect(read.niceness == lowered, "read at the lane's priority: \(read)")
            #expect(read.policy == Self.batchPolicy, "as a batch thread, which never takes the core on waking: \(read)")
        }
        #expect(
            refresh.allSatisfy { $0.framesDrawn > before },
            "the refresh began after the frame of the poll that asked for it (\(before)): \(refresh)")
        #expect(
            search.first.map { $0.framesDrawn > beforeSearch } == true,
            "the first search read began after its key's frame (\(beforeSearch)): \(search)")
    }
}
