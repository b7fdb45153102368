import Foundation
import QuireCore
import QuireServer
import QuireStore
import QuireTestSupport
import Testing

@testable import QuireSync

/// 429 from a real server with a tiny rate limit: the worker waits the whole `Retry-After`
/// (not its own, much shorter backoff) before the next attempt, and the status says when.
@Suite(.serialized) struct SyncRateLimitTests {
    @Test func theWorkerWaitsForRetryAfterAndTheStatusShowsWhen() async throws {
        let server = try SyncTestServer()
        // One request now, the next after 1,000 s: the bounds below hold even when a loaded
        // machine takes a minute and more between the test's requests (at 0.01/s, 90 s of the
        // 100 s wait had been allowed for, and a loaded run once took 88 s in all).
        server.rateLimit = RateLimit(perSecond: 0.001, burst: 1)
        let token = try await server.addUser("ann")
        try await server.start()
        defer { Task { await server.stop() } }
        let home = NSTemporaryDirectory() + "quire-ratelimit-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let settings = SyncSettings(configPath: home + "/config.toml", credentialsPath: home + "/credentials")
        try settings.setRemote(SyncRemote(url: server.baseURL, token: token))
        let database = try AppDatabase.temporary(environment: .live)
        let engine = SyncSetup.engine(
            for: database, settings: settings, environment: database.environment, timeout: SyncTestServer.clientTimeout,
            limits: Device.testLimits
        )
        let clock = ManualSyncScheduler()
        let worker = SyncWorker(runner: engine, scheduler: clock, random: ConstantRandom(value: 0))
        defer { worker.stop() }

        _ = try database.create(NewItem(title: "One"))
        worker.start()
        if await !suspendUntil(timeout: 20, { worker.roundCounts.finished == 1 }) {
            // Seen twice in loaded full runs: the first round still "syncing" after 20 s. What the
            // round has logged so far says where it waits.
            let events = try SyncStatusReport.read(
                database: database, settings: settings, worker: worker.status, events: 20, now: clock.now()
            ).events.map { "\($0.kind): \($0.message)" }
            Issue.record("the first round did not finish within 20 s; its log, newest first: \(events)")
        }
        #expect(worker.status.connection == .idle, "the first request fits the burst")

        _ = try database.create(NewItem(title: "Two"))
        worker.syncNow()
        await eventually(timeout: 20) { worker.roundCounts.finished == 2 }
        guard case .serverError(429, let answered)? = engine.recentRounds.last?.outcome, let retryAfter = answered
        else {
            Issue.record("expected 429 with Retry-After, got \(String(describing: engine.recentRounds.last?.outcome))")
            return
        }
        #expect(retryAfter >= 900 && retryAfter <= 1000, "the server's wait for one request at 0.001/s")
        let status = worker.status
        #expect(status.connection == .error)
        #expect(status.problemDetail == "HTTP 429")
        let nextRetry = try #require(status.nextRetry)
        #expect(nextRetry.timeIntervalSince(clock.now()) >= retryAfter, "not sooner than Retry-After")
        #expect(nextRetry.timeIntervalSince(clock.now()) < retryAfter + 1, "and not much later either")
        #expect(clock.deadlines.contains(nextRetry), "the retry timer is set for that moment")

        let report = try SyncStatusReport.read(database: database, settings: settings, worker: status, now: clock.now())
        #expect(report.state == .error)
        #expect(report.nextRetry == nextRetry, "the status shows when the next attempt is")
        #expect(report.outbox == 1, "the change waits")
        #expect(report.events.first?.kind == .retry)
        #expect(report.events.first?.message.contains("429") == true)

        // Writes and the periodic timer do not jump the queue while the wait runs.
        worker.nudge()
        clock.advance(by: retryAfter - 1)
        _ = worker.status
        #expect(worker.roundCounts.started == 2, "no attempt before Retry-After has passed")
        #expect(try database.outboxCounts().pending == 1)

        // At Retry-After the next attempt goes; the server still refuses, and says so again.
        clock.advance(by: 1.5)
        await eventually(timeout: 20) { worker.roundCounts.finished == 3 }
        #expect(worker.roundCounts.started == 3)
        #expect(worker.status.failures == 2)
        let again = try #require(worker.status.nextRetry)
        #expect(
            again.timeIntervalSince(clock.now()) >= 800,
            "the server's Retry-After again, not the backoff's 2 s for a second failure")
    }
}
