import Foundation
import QuireApp
import QuireCore
import QuireStore
import QuireSync
import QuireTestSupport
import Testing

/// The app's worker, waiting to retry after the server could not be reached, tries at once
/// when another process on this device reaches the server (`quire sync` in another terminal):
/// the status bar must not go on saying offline while the server answers.
@Suite struct RetryWaitTests {
    @Test func anotherProcessReachingTheServerEndsTheAppsWaitForARetry() throws {
        let server = try TmuxSyncTests.Server(binary: try #require(BuiltProduct.path("quire-server")))
        let quire = try #require(BuiltProduct.path("quire"))
        // The worker's timers run on a clock only the test moves, and it never does: the retry
        // the worker schedules never comes by itself.
        let clock = ManualSyncScheduler(now: Date())
        let made = WorkerBox()
        let app = try AppHarness(syncOverStore: { store, directory in
            let settings = AppHarness.settings(in: directory)
            try settings.setRemote(SyncRemote(url: server.url, token: server.token))
            let engine = SyncSetup.engine(for: store, settings: settings, environment: store.environment)
            let news = SyncNews(isLocked: { false })
            let worker = SyncWorker(runner: engine, scheduler: clock, onStatus: { news.workerChanged($0) })
            news.link(worker: worker, hints: nil)
            made.worker = worker
            made.news = news
            return LiveSyncControl(
                settings: settings, worker: worker, engine: engine, news: news,
                storeLastSuccess: { try? store.syncMeta().lastSuccessAt })
        })
        let worker = try #require(made.worker)
        let news = try #require(made.news)
        defer { worker.stop() }
        worker.start()
        #expect(waitUntil(timeout: 10) { news.current?.roundsFinished == 1 && news.current?.problem == nil })

        // The server goes; a round fails, and the worker waits for its retry.
        server.process.kill()
        _ = try app.store.create(NewItem(title: "Written while away"))
        worker.syncNow()
        #expect(
            waitUntil(timeout: 10) { news.current?.connection == .offline && news.current?.nextRetry != nil },
            "\(String(describing: news.current))")
        #expect(app.waitFor { app.lines.last?.contains("offline") == true }, "\(app.text)")

        // The server is back, and `quire sync` in another process reaches it with this store.
        try server.restart()
        var environment = ProcessInfo.processInfo.environment
        environment["QUIRE_HOME"] = app.directory
        let sync = try ChildRun.run(quire, ["sync"], environment: environment, stdin: nil, mergingOutput: true)
        #expect(sync.status == 0, "\(sync.stdout)")

        // The app sees that commit, and its worker tries now rather than at its retry.
        #expect(
            waitUntil(timeout: 10) { news.current?.connection != .offline && news.current?.nextRetry == nil },
            "the worker still waits for its retry: \(String(describing: news.current))")
        #expect(app.waitFor { app.lines.last?.contains("All changes synced") == true }, "\(app.text)")
        #expect(clock.deadlines.allSatisfy { $0 > clock.now() }, "no timer of the worker came due")
    }

    /// The worker and its news, made inside the harness's setup.
    final class WorkerBox: @unchecked Sendable {
        var worker: SyncWorker?
        var news: SyncNews?
    }
}
