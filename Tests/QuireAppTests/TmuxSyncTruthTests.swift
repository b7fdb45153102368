import Foundation
import QuireCore
import QuireStore
import QuireTestSupport
import Testing

/// The status bar tells the truth about sync within seconds, on real processes: the built
/// `quire` in tmux and the built `quire-server` on a loopback port, which the tests kill,
/// start again and revoke tokens on.
@Suite(.serialized, Tmux.required) struct TmuxSyncTruthTests {
    /// Runs `body` with a server and one device signed in to it, its app open and live (its pid
    /// in `device.recordedPID()`); the app quits cleanly afterwards.
    func withLiveDevice(_ body: (TmuxSyncTests.Server, TmuxEndToEndTests.Setup, Tmux) throws -> Void) throws {
        let server = try TmuxSyncTests.Server(binary: try #require(BuiltProduct.path("quire-server")))
        let device = try TmuxEndToEndTests.Setup()
        defer {
            // The server must outlive the app's last sync: it stops when released.
            withExtendedLifetime(server) {}
            try? FileManager.default.removeItem(atPath: device.home)
        }
        #expect(try device.cli("remote", "set", server.url, "--token", server.token).status == 0)
        let tmux = try Tmux(script: device.scriptRecordingPID(), directory: device.home)
        #expect(tmux.waitFor(timeout: 20) { $0.contains("· live") }, "\(tmux.capture())")
        try body(server, device, tmux)
        tmux.keys("q")
        #expect(tmux.waitFor { $0.contains("quire-exited-0") })
    }

    /// The bottom row of the pane: the status bar.
    static func bar(_ screen: String) -> String {
        screen.split(separator: "\n", omittingEmptySubsequences: false).last { !$0.isEmpty }.map(String.init) ?? ""
    }

    @Test func aKilledServerIsSeenInSecondsAndSoIsItsReturn() throws {
        try withLiveDevice { server, _, tmux in
            server.process.kill()
            // The hint stream ends with the process, and the app checks the server at once: the
            // bar says offline (not "All changes synced · live", nor "· polling" as if all were
            // well) within seconds, not at the next minute's pull.
            #expect(
                tmux.waitFor(timeout: 5) {
                    let bar = Self.bar($0)
                    return !bar.contains("live") && bar.contains("offline")
                }, "\(tmux.capture())")

            try server.restart()
            #expect(tmux.waitFor(timeout: 5) { Self.bar($0).contains("· live") }, "\(tmux.capture())")
        }
    }

    /// "retrying in Ns" is when the worker really tries next: each countdown read off the bar
    /// is checked against the attempt the store's event log records. Once the backoff has
    /// grown to a few seconds, an edit is made while offline (`p` pins the item): it waits for
    /// the worker's schedule, and the countdown read after it must still say when that is (the
    /// app used to guess its own: "retrying in 31s", then a retry within a second or two).
    @Test func theRetryCountdownIsWhenTheNextAttemptHappens() throws {
        try withLiveDevice { server, device, tmux in
            #expect(try device.cli("add", "Buy milk").status == 0)
            #expect(tmux.waitFor { $0.contains("Buy milk") }, "\(tmux.capture())")
            let store = try AppDatabase.open(path: device.home + "/quire.db")
            server.process.kill()
            var previous = Date.distantPast
            var pinned = false
            var attempt = 0
            // Full jitter: a wait of 4 s or more comes after a handful of failures.
            while attempt < 10 && !(pinned && attempt >= 3) {
                attempt += 1
                // A countdown read after the last attempt had time to show its outcome.
                var seen = Date()
                var seconds: Int?
                let shown = tmux.waitFor(timeout: 10) { screen in
                    seen = Date()
                    seconds = Self.countdown(in: Self.bar(screen))
                    return seconds != nil && seen > previous.addingTimeInterval(0.3)
                }
                if !pinned, let long = seconds, long >= 4 {
                    pinned = true
                    tmux.keys("p")
                    #expect(tmux.waitFor { $0.contains("★ Buy milk") }, "\(tmux.capture())")
                    seconds = nil
                    _ = tmux.waitFor(timeout: 2) { screen in
                        seen = Date()
                        seconds = Self.countdown(in: Self.bar(screen))
                        return seconds != nil
                    }
                }
                let wait = try #require(seconds, "attempt \(attempt): no countdown on the bar: \(tmux.capture())")
                #expect(shown)
                // The worker's failed attempts each log a RETRY event when the server cannot be reached.
                var next: Date?
                #expect(
                    waitUntil(timeout: Double(wait) + 5, every: 0.05) {
                        next = try? store.recentSyncEvents(limit: 5).filter { $0.kind == .retry && $0.at > seen }.map(
                            \.at
                        ).min()
                        return next != nil
                    }, "attempt \(attempt): no attempt within \(wait + 5) s of 'retrying in \(wait)s'")
                let happened = try #require(next)
                previous = happened
                // Seconds round up: "in 3s" means from 2 to 3 s on. The attempt is within a
                // second of the middle of that second.
                let due = seen.addingTimeInterval(Double(wait) - 0.5)
                #expect(
                    abs(happened.timeIntervalSince(due)) <= 1.0,
                    "attempt \(attempt): the bar said \(wait)s; it came \(happened.timeIntervalSince(seen)) s later")
            }
            #expect(pinned, "the backoff never reached 4 s in \(attempt) attempts")
        }
    }

    /// The seconds of `retrying in Ns` on the bar, if it says that.
    static func countdown(in bar: String) -> Int? {
        guard let range = bar.range(of: #"retrying in \d+s"#, options: .regularExpression) else { return nil }
        return Int(bar[range].dropFirst("retrying in ".count).dropLast())
    }

    /// A device that only reads learns of its revoked token from the hint stream's end and the
    /// refusal that follows, not at the next minute's pull; it stops trying until a new token.
    @Test func aRevokedTokenAsksToSignInAgainAtOnce() throws {
        try withLiveDevice { server, device, tmux in
            #expect(server.admin("token", "revoke", "alice").status == 0)
            // The server ends a revoked token's streams within a second.
            #expect(tmux.waitFor(timeout: 2) { Self.bar($0).contains("sign in again") }, "\(tmux.capture())")

            // Nothing more is tried with the refused token.
            let store = try AppDatabase.open(path: device.home + "/quire.db")
            let attempts = try store.recentSyncEvents(limit: 50).filter { $0.kind == .syncStart }.count
            #expect(
                !waitUntil(timeout: 3, every: 0.1) {
                    ((try? store.recentSyncEvents(limit: 50).filter { $0.kind == .syncStart }.count) ?? 0) > attempts
                })

            // A new token, set in another terminal: live again.
            let issued = server.admin("token", "add", "alice")
            let token = try #require(issued.output.split(separator: "\n").last.map(String.init))
            #expect(try device.cli("remote", "set", server.url, "--token", token).status == 0)
            #expect(tmux.waitFor(timeout: 10) { Self.bar($0).contains("· live") }, "\(tmux.capture())")
        }
    }
}
