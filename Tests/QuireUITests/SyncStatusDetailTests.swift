import Foundation
import QuireCore
import QuireUI
import Testing

/// The pure parts of the sync status report: percentiles, the sparkline, the event log.
@Suite struct SyncStatusDetailTests {
    @Test func percentilesAreNearestRank() {
        let values = (1...100).map(Double.init).shuffled()
        #expect(SyncStatusDetail.percentile(values, 0.5) == 50)
        #expect(SyncStatusDetail.percentile(values, 0.95) == 95)
        #expect(SyncStatusDetail.percentile(values, 1) == 100)
        #expect(SyncStatusDetail.percentile(values, 0) == 1)
        #expect(SyncStatusDetail.percentile([0.3, 0.1, 0.2, 0.4], 0.5) == 0.2)
        #expect(SyncStatusDetail.percentile([0.3, 0.1, 0.2, 0.4], 0.95) == 0.4)
        #expect(SyncStatusDetail.percentile([7], 0.5) == 7)
        #expect(SyncStatusDetail.percentile([], 0.5) == nil)
    }

    @Test func durationsSkipRoundsWithoutAnEndAndBytesAddUp() {
        let detail = SyncStatusDetail(
            remote: "https://x", connection: .idle,
            rounds: [
                .init(duration: 2, bytesSent: 10, bytesReceived: 1),
                .init(duration: nil, bytesSent: 5, bytesReceived: 0),
                .init(duration: 1, bytesSent: 0, bytesReceived: 100),
            ])
        #expect(detail.durations == [2, 1])
        #expect(detail.bytesSent == 15)
        #expect(detail.bytesReceived == 101)
    }

    @Test func sparklineScalesToTheLargestSample() {
        #expect(Sparkline.bars([0, 1, 2, 3, 4, 5, 6, 7], width: 8) == "▁▂▃▄▅▆▇█")
        #expect(Sparkline.bars([0, 70], width: 10) == "▁█")
        // A small non-zero depth never looks like an empty outbox.
        #expect(Sparkline.bars([1, 1000], width: 10) == "▂█")
    }

    @Test func sparklineOfNothingWaitingIsFlat() {
        #expect(Sparkline.bars([0, 0, 0], width: 10) == "▁▁▁")
        #expect(Sparkline.bars([], width: 10) == "")
        #expect(Sparkline.bars([-3], width: 10) == "▁")
    }

    @Test func sparklineOfOneSample() {
        #expect(Sparkline.bars([5], width: 10) == "█")
        #expect(Sparkline.bars([0], width: 10) == "▁")
    }

    @Test func sparklineShowsTheNewestSamplesThatFit() {
        #expect(Sparkline.bars([100, 0, 1, 2], width: 3) == "▁▅█")
        #expect(Sparkline.bars([1, 2, 3], width: 0) == "")
    }

    @Test func eventsAreNewestFirstAndBounded() {
        let base = Date(timeIntervalSince1970: 1_000_000)
        let events = (1...120).map { n in
            // Two events share each second: the log's order breaks the tie.
            SyncStatusDetail.Event(
                seq: Int64(n), at: base.addingTimeInterval(Double(n / 2)), kind: .pushOK, message: "\(n)")
        }.shuffled()
        let detail = SyncStatusDetail(remote: nil, connection: .noRemote, events: events)
        #expect(detail.events.count == SyncStatusDetail.eventLimit)
        #expect(detail.events.map(\.seq) == (71...120).reversed().map(Int64.init))
        #expect(SyncStatusDetail.newestFirst(events, limit: 3).map(\.seq) == [120, 119, 118])
        #expect(SyncStatusDetail.newestFirst(events, limit: -1).isEmpty)
    }

    @Test func theDepthHistoryKeepsTheNewestSamples() {
        var state = SyncStatusState()
        for depth in 1...(SyncStatusState.historyLimit + 5) { state.record(depth: depth) }
        #expect(state.depthHistory.count == SyncStatusState.historyLimit)
        #expect(state.depthHistory.first == 6)
        state.record(depth: -2)
        #expect(state.depthHistory.last == 0)
    }
}
