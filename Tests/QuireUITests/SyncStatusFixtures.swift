import Foundation
import QuireCore
import QuireUI
import TerminalUI

/// Sync status reports for the screen's tests: one with nothing to show, one with everything.
enum SyncStatusFixtures {
    static let now = Date(timeIntervalSince1970: 1_795_300_000)

    static func at(_ secondsAgo: TimeInterval) -> Date { now.addingTimeInterval(-secondsAgo) }

    static let localOnly = SyncStatusDetail(remote: nil, connection: .noRemote, outbox: 2)

    static let busy = SyncStatusDetail(
        remote: "https://sync.example.com/quire", connection: .offline,
        problem: "server unreachable (connection refused)", lastSuccess: at(3_600), outbox: 7, inFlight: 2,
        nextRetry: now.addingTimeInterval(8),
        deadLetters: [
            .init(
                opID: Fixtures.id(901), itemID: Fixtures.id(2), title: "Buy milk",
                reason: "the server refused it as too large", at: at(600)),
            .init(
                opID: Fixtures.id(902), itemID: Fixtures.id(3), title: "日本語のメモ",
                reason: "title must not be empty", at: at(300)),
        ],
        conflicts: [
            .init(itemID: Fixtures.id(5), title: "Meeting notes: quarterly planning with the whole team and guests"),
            .init(itemID: Fixtures.id(8), title: "Café order: crème brûlée"),
        ],
        rounds: [
            .init(duration: 0.12, bytesSent: 2_048, bytesReceived: 10_240),
            .init(duration: 0.34, bytesSent: 512, bytesReceived: 0),
            .init(duration: nil, bytesSent: 0, bytesReceived: 0),
            .init(duration: 1.5, bytesSent: 40_000, bytesReceived: 1_300_000),
        ],
        roundSource: .eventLog,
        events: (1...30).map { n in
            let kinds: [SyncEventKind] = [.syncStart, .pushOK, .pullOK, .retry, .deadLetter, .conflict]
            return SyncStatusDetail.Event(
                seq: Int64(n), at: at(Double(30 - n) * 60), kind: kinds[n % kinds.count],
                message: "event \(n): something happened to 🚀 item")
        })

    /// Caught up, with items that do not open here: one held here under a long title, one never
    /// held, one with a wide-character title.
    static let unreadable = SyncStatusDetail(
        remote: "https://sync.example.com/quire", connection: .idle, lastSuccess: at(60), outbox: 0,
        unreadable: [
            .init(
                itemID: Fixtures.id(21), shortID: "c0de", title: "Groceries for the weekend and the party after",
                reason: "its title does not open: sealed under key id 2, which this device does not have; unlock again"),
            .init(
                itemID: Fixtures.id(22), shortID: "0193a9d2", title: nil,
                reason: "the MAC of its body does not match its value"),
            .init(
                itemID: Fixtures.id(23), shortID: "be7a1", title: "日本語のメモ",
                reason: "its body does not open: the ciphertext is damaged"),
        ],
        rounds: [.init(duration: 0.2, bytesSent: 0, bytesReceived: 4_096)],
        roundSource: .eventLog,
        events: [
            SyncStatusDetail.Event(
                seq: 1, at: at(60), kind: .unreadable,
                message: "cannot read item: its title does not open: sealed under key id 2")
        ])

    /// The harness on the sync status screen with `detail` loaded and a history of outbox depths.
    static func harness(size: Size, detail: SyncStatusDetail, depths: [Int] = [0, 1, 3, 7, 9, 4, 2, 0]) -> Harness {
        var harness = Harness(size: size)
        for depth in depths {
            harness.send(.syncChanged(SyncSummary(connection: .offline, pending: depth)))
        }
        harness.press(.character("S"))
        harness.send(.syncStatus(.loaded(detail)))
        return harness
    }
}
