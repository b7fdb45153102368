import Foundation
import QuireApp
import QuireStore
import QuireUI
import TerminalUI

/// Keystroke-to-frame latency through the app runtime over the benchmark store.
struct TUIBenchLatency {
    let path: String
    let presses: Int

    /// Frame times in nanoseconds of uptime, recorded by the runtime's frame hook, each with
    /// the search whose rows it showed (nil when its rows answered no search or an older one).
    final class FrameClock: @unchecked Sendable {
        private let lock = NSLock()
        private var frames: [(time: UInt64, searchShown: String?, selection: Int?)] = []

        func record(_ state: AppState? = nil) {
            let now = DispatchTime.now().uptimeNanoseconds
            let list = state?.list
            let shown = list.flatMap { $0.rowsQuery == $0.query ? $0.query.search : nil }
            lock.withLock { frames.append((now, shown, list?.selection)) }
        }

        /// The first frame drawn at or after `start`.
        func firstFrame(after start: UInt64) -> UInt64? {
            lock.withLock { frames.first { $0.time >= start }?.time }
        }

        /// The first frame at or after `start` whose rows are the results of the search `text`.
        func firstFrame(after start: UInt64, showingSearch text: String) -> UInt64? {
            lock.withLock { frames.first { $0.time >= start && $0.searchShown == text }?.time }
        }

        /// The first frame at or after `start` with `selection` as the selected row: the frame
        /// of the key that moved the selection there. A frame the app drew for other work while
        /// the key waited behind it (the sync worker's news, a poll) comes first but still
        /// shows the old selection, so it is not taken for the key's.
        func firstFrame(after start: UInt64, selecting selection: Int) -> UInt64? {
            lock.withLock { frames.first { $0.time >= start && $0.selection == selection }?.time }
        }

        /// The selected row in the last frame drawn.
        var lastSelection: Int? { lock.withLock { frames.last?.selection } }
    }

    func measure() throws -> [(String, TUIBenchStats)] {
        let store = try AppDatabase.open(path: path)
        // A pinned note with a 1 MB Markdown body (every element the item view renders), second
        // in the list, for the rendered item view's figures.
        _ = try store.create(NewItem(title: "A 1 MB Markdown note", body: TUIBenchData.markdownBody, pinned: true))
        // A pinned note with a 1 MB body, first in the list, for the editor's figures.
        let line = "A line of a long note, typed over months, one of many in the body.\n"
        let longBody = String(repeating: line, count: (1 << 20) / line.utf8.count)
        _ = try store.create(NewItem(title: "A 1 MB note", body: longBody, pinned: true))
        let backend = TestBackend(size: Size(width: 120, height: 40))
        let runtime = AppRuntime(
            environment: AppEnvironment(items: StoreItemSource(store: store)), backend: backend, label: "quire.bench.ui"
        )
        let clock = FrameClock()
        runtime.onFrame = { clock.record($0) }
        runtime.start()
        runtime.waitUntilIdle()
        defer {
            runtime.stop()
            _ = runtime.waitUntilStopped()
        }

        /// Milliseconds from sending the key to its first frame, to the first frame showing the
        /// results of `search` (when given), and to the app being idle again (every piece of
        /// background work done and drawn, the full count of a search's matches included).
        func time(_ key: Key, search: String? = nil) -> (frame: Double, results: Double, settled: Double) {
            let start = DispatchTime.now().uptimeNanoseconds
            runtime.send(.key(key))
            runtime.waitUntilIdle()
            let end = DispatchTime.now().uptimeNanoseconds
            let frame = clock.firstFrame(after: start) ?? end
            let results = search.flatMap { clock.firstFrame(after: start, showingSearch: $0) } ?? end
            return (
                Double(frame - start) / 1_000_000, Double(results - start) / 1_000_000,
                Double(end - start) / 1_000_000
            )
        }

        var results: [(String, TUIBenchStats)] = []
        results.append(
            ("move the selection (`j`)", TUIBenchStats((0..<presses).map { _ in time(.character("j")).frame })))
        results.append(("page down (`PgDn`)", TUIBenchStats((0..<presses).map { _ in time(.pageDown).frame })))
        results.append(("page up (`PgUp`)", TUIBenchStats((0..<presses).map { _ in time(.pageUp).frame })))
        var ends: [Double] = []
        for _ in 0..<max(5, presses / 20) {
            ends.append(time(.character("G")).frame)
            ends.append(time(.character("g")).frame)
        }
        results.append(("jump to the bottom and back (`G`, `g`)", TUIBenchStats(ends)))
        var echo: [Double] = []
        var shown: [Double] = []
        var settled: [Double] = []
        let queries = ["garden", "weekly review", "budget", "music paint", "zzz nothing"]
        var round = 0
        while echo.count < presses {
            _ = time(.character("/"))
            var typed = ""
            for character in queries[round % queries.count] {
                typed.append(character)
                let measured = time(.character(character), search: typed)
                echo.append(measured.frame)
                shown.append(measured.results)
                settled.append(measured.settled)
            }
            _ = time(.escape)
            round += 1
        }
        results.append(("type a search: key to frame", TUIBenchStats(echo)))
        results.append(("type a search: key to results", TUIBenchStats(shown)))
        results.append(("type a search: key to every match counted", TUIBenchStats(settled)))

        // The built-in editor on the 1 MB note: opening it, typing and moving through the body.
        // `e` opens the item with the cursor at the end of its body; Esc leaves it unchanged.
        _ = time(.character("g"))
        var opening: [Double] = []
        var firstKeys: [Double] = []
        for _ in 0..<max(5, presses / 20) {
            opening.append(time(.character("e")).frame)
            firstKeys.append(time(.character("x")).frame)
            _ = time(.backspace)
            _ = time(.escape)
        }
        results.append(("editor, 1 MB body: open at its end (`e`) to first frame", TUIBenchStats(opening)))
        // The item view (Enter) of the same note: its first rows, then a row further.
        var viewing: [Double] = []
        var scrolling: [Double] = []
        for _ in 0..<max(5, presses / 20) {
            viewing.append(time(.enter).frame)
            scrolling.append(time(.character("j")).frame)
            _ = time(.escape)
        }
        results.append(("item view, 1 MB body: open (`Enter`) to first frame", TUIBenchStats(viewing)))
        results.append(("item view, 1 MB body: scroll a row (`j`)", TUIBenchStats(scrolling)))
        // The item view of the 1 MB Markdown note (second in the list): rendered as far as the
        // screen reaches, then a page further each time.
        _ = time(.character("j"))
        var rendering: [Double] = []
        var paging: [Double] = []
        for _ in 0..<max(5, presses / 20) {
            rendering.append(time(.enter).frame)
            for _ in 0..<5 { paging.append(time(.pageDown).frame) }
            _ = time(.escape)
        }
        results.append(("item view, 1 MB Markdown body: open (`Enter`) to first frame", TUIBenchStats(rendering)))
        results.append(("item view, 1 MB Markdown body: scroll a page (`PgDn`)", TUIBenchStats(paging)))
        _ = time(.character("g"))
        results.append(("editor, 1 MB body: the first key typed after opening", TUIBenchStats(firstKeys)))
        _ = time(.character("e"))
        var typing: [Double] = []
        var moving: [Double] = []
        for index in 0..<presses {
            typing.append(time(.character(index % 10 == 9 ? " " : "x")).frame)
            moving.append(time(index % 20 == 19 ? .pageDown : .down).frame)
        }
        results.append(("editor, 1 MB body: type a character", TUIBenchStats(typing)))
        results.append(("editor, 1 MB body: move down a row or a page", TUIBenchStats(moving)))
        _ = time(.escape)
        return results
    }
}
