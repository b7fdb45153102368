import Foundation
import QuireApp
import QuireCore
import QuireProtocol
import QuireStore
import QuireSync
import QuireUI
import TerminalUI
import Testing

/// A new device's first sync through the real runtime over a real store file: the list fills as
/// each page of the pull is committed, and the status bar counts the items received so far.
@Suite struct FirstPullRuntimeTests {
    @Test func theListFillsAsPagesLandAndTheBarCountsThem() throws {
        let news = SyncNews(isLocked: { false })  // a plain account
        let environment = StoreEnvironment.deterministic()
        let app = try AppHarness(
            size: Size(width: 100, height: 24), storeEnvironment: environment,
            sync: { directory in
                let settings = SyncSettings(
                    configPath: directory + "/config.toml", credentialsPath: directory + "/credentials")
                try settings.setRemote(SyncRemote(url: "http://127.0.0.1:9/quire", token: "a-token-for-the-test"))
                return LiveSyncControl(settings: settings, news: news)
            })
        let ledger = SyncLedger(storage: app.store.syncStorage(), now: environment.now, newID: environment.newID)
        // What the engine and the worker say as a round of a first pull begins.
        news.workerChanged(SyncMachine.Status(connection: .syncing, roundsStarted: 1))
        news.firstPullChanged(0)
        #expect(app.waitFor { app.text.contains("first sync · 0 items received") }, "\(app.text)")

        let pulledAt = Date(timeIntervalSince1970: 1_799_000_000)
        for page in 0..<3 {
            let changes = (0..<200).map { n in
                let number = page * 200 + n
                let at = pulledAt.addingTimeInterval(Double(number))
                return ChangeItem(
                    id: String(format: "0193a9d2-%04x-7000-8000-000000000000", number), rev: 1,
                    title: "Pulled \(number)", createdAt: at, updatedAt: at)
            }
            _ = try ledger.applyPage(
                SyncResponse(
                    results: [], changes: changes, cursor: "c\(page)", more: page < 2, epoch: "e1", stateHash: ""))
            news.firstPullChanged((page + 1) * 200)
            app.pollAndWait()
            #expect(app.state.list.total == (page + 1) * 200, "page \(page + 1)")
            #expect(app.text.contains("/\((page + 1) * 200) "), "the bar counts the rows: \(app.text)")
            #expect(app.text.contains("first sync · \((page + 1) * 200) items received"), "\(app.text)")
        }
        news.firstPullChanged(nil)
        news.workerChanged(
            SyncMachine.Status(connection: .idle, lastSuccess: pulledAt, roundsStarted: 1, roundsFinished: 1))
        #expect(app.waitFor { !app.text.contains("first sync") }, "\(app.text)")
    }
}
