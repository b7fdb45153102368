import Foundation
import Testing

@testable import QuireCore

@Suite struct SyncSummaryTests {
    let utc = TimeZone(identifier: "UTC")!
    /// 2026-11-22 14:22:00 UTC.
    let now = Date(timeIntervalSince1970: 1_795_357_320)

    @Test func theThreeStatusBarExamplesOfTheSpec() {
        #expect(
            SyncSummary(connection: .idle, lastSuccess: now).statusLine(now: now, timeZone: utc)
                == "All changes synced · 14:22")
        #expect(
            SyncSummary(connection: .offline, pending: 3, nextRetry: now.addingTimeInterval(7.2))
                .statusLine(now: now, timeZone: utc) == "3 pending · offline, retrying in 8s")
        #expect(
            SyncSummary(connection: .idle, needsReview: 1, lastSuccess: now).statusLine(now: now, timeZone: utc)
                == "1 needs review · press c")
    }

    /// A first pull says how many items it has brought; the server does not say how many
    /// there are in all, so there is no share and no time left.
    @Test func aFirstSyncCountsTheItemsReceivedSoFar() {
        func line(_ summary: SyncSummary) -> String { summary.statusLine(now: now, timeZone: utc) }
        #expect(
            line(SyncSummary(connection: .syncing, firstPullReceived: 12_500)) == "first sync · 12,500 items received")
        #expect(
            line(SyncSummary(connection: .syncing, pending: 2, firstPullReceived: 1))
                == "2 pending · first sync · 1 item received")
        // Between its rounds or after a failure, the bar says what is true then.
        #expect(line(SyncSummary(connection: .offline, pending: 1, firstPullReceived: 500)) == "1 pending · offline")
        let worker = SyncWorkerState(connection: .syncing, firstPullReceived: 40)
        #expect(line(worker.applied(to: SyncSummary(connection: .idle))) == "first sync · 40 items received")
    }

    @Test func otherStates() {
        func line(_ summary: SyncSummary) -> String { summary.statusLine(now: now, timeZone: utc) }
        #expect(
            line(SyncSummary(connection: .authNeeded, pending: 2))
                == "2 pending · sync paused · sign in again: quire remote set")
        #expect(line(SyncSummary(connection: .noRemote)) == "Local only · no remote set")
        #expect(line(SyncSummary(connection: .noRemote, pending: 4)) == "4 pending · no remote set")
        #expect(
            line(SyncSummary(connection: .error, pending: 1, nextRetry: now.addingTimeInterval(90)))
                == "1 pending · sync error, retrying in 1m 30s")
        #expect(line(SyncSummary(connection: .syncing, pending: 5)) == "5 pending · syncing…")
        #expect(
            line(SyncSummary(connection: .idle, deadLetters: 2, lastSuccess: now)) == "2 changes rejected · press S")
        #expect(line(SyncSummary(connection: .idle, pending: 2, lastSuccess: now)) == "2 pending")
        #expect(line(SyncSummary(connection: .idle)) == "Not synced yet")
        #expect(line(SyncSummary(connection: .offline, pending: 1)) == "1 pending · offline")
    }

    /// A locked device says so in every state, not only when its last round was refused: an
    /// offline one says both (it said only "offline"), and an idle one never says "synced".
    @Test func aLockedDeviceSaysSoWhateverTheConnection() {
        func line(_ connection: SyncConnection, nextRetry: Date? = nil) -> String {
            var summary = SyncSummary(connection: connection, pending: 2, nextRetry: nextRetry)
            summary.unlockNeeded = true
            return summary.statusLine(now: now, timeZone: utc, unlock: "press U to unlock")
        }
        #expect(line(.authNeeded) == "2 pending · sync paused · encrypted: press U to unlock")
        #expect(line(.idle) == "2 pending · sync paused · encrypted: press U to unlock")
        #expect(
            line(.offline, nextRetry: now.addingTimeInterval(8))
                == "2 pending · offline, retrying in 8s · encrypted: press U to unlock")
        #expect(line(.error) == "2 pending · sync error · encrypted: press U to unlock")
        #expect(line(.syncing) == "2 pending · syncing… · encrypted: press U to unlock")
        #expect(line(.noRemote) == "2 pending · no remote set")
    }

    @Test func aSuccessOnAnEarlierDayShowsTheDate() {
        let yesterday = now.addingTimeInterval(-86_400)
        #expect(
            SyncSummary(connection: .idle, lastSuccess: yesterday).statusLine(now: now, timeZone: utc)
                == "All changes synced · Nov 21 14:22")
    }

    @Test func clockTimeFollowsTheTimeZone() {
        let paris = TimeZone(secondsFromGMT: 3600)!
        #expect(SyncSummary.clockTime(now, now: now, timeZone: paris) == "15:22")
    }

    @Test(arguments: [
        (0.0, "now"), (-3, "now"), (0.2, "in 1s"), (59, "in 59s"), (60, "in 1m"), (61, "in 1m 1s"),
        (3600, "in 1h"), (3720, "in 1h 2m"),
    ])
    func countdowns(_ seconds: Double, _ expected: String) {
        #expect(SyncSummary.countdown(from: now, to: now.addingTimeInterval(seconds)) == expected)
    }

    @Test func connectionNamesAreTheStatusJSONStates() {
        #expect(
            SyncConnection.allCases.map(\.rawValue) == [
                "idle", "syncing", "offline", "auth-needed", "error", "no-remote",
            ])
    }
}
