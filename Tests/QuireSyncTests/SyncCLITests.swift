import Dispatch
import Foundation
import QuireCore
import QuireProtocol
import QuireServer
import QuireTestSupport
import Testing

@testable import QuireSync

/// What one run of the built `quire` printed and how it exited.
struct CLIRun: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String

    /// stdout as the JSON object `--json` promises.
    func object(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed])
        return try #require(
            value as? [String: Any], "stdout is one JSON object: \(stdout)", sourceLocation: sourceLocation)
    }
}

extension QuireBinary {
    /// Runs the built `quire` with its own `QUIRE_HOME`, on a thread of its own (so waiting
    /// for the process never holds one of the task pool's threads).
    static func execute(_ arguments: [String], home: String, stdin: String? = nil) async throws -> CLIRun {
        let path = try #require(QuireBinary.path, "the quire executable is built beside the tests")
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do {
                    let output = try ChildRun.run(path, arguments, environment: environment(home: home), stdin: stdin)
                    continuation.resume(
                        returning: CLIRun(status: output.status, stdout: output.stdout, stderr: output.stderr))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Runs the built `quire` and requires it to succeed; its output, trimmed.
    @discardableResult
    static func must(
        _ arguments: [String], home: String, stdin: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let run = try await execute(arguments, home: home, stdin: stdin)
        try #require(
            run.status == 0, "quire \(arguments.joined(separator: " ")): \(run.stderr)", sourceLocation: sourceLocation)
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs the built `quire` and expects it to succeed: a failure is recorded with what it
    /// printed, and the test goes on.
    @discardableResult
    static func expectingSuccess(
        _ arguments: [String], home: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> CLIRun {
        let run = try await execute(arguments, home: home)
        #expect(run.status == 0, "\(arguments): \(run.stderr)", sourceLocation: sourceLocation)
        return run
    }

    /// A new empty home for one test's device.
    static func makeHome(_ label: String) throws -> String {
        let home = NSTemporaryDirectory() + "quire-\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        return home
    }
}

/// `quire sync` and `quire status --json` as scripts see them: the built binary, its own
/// `QUIRE_HOME`, and the real server on a loopback port.
@Suite(.serialized) struct SyncCLITests {
    static let statusKeys: Set<String> = [
        "remote", "state", "lastSuccess", "outbox", "inFlight", "nextRetry", "deadLetters", "conflicts", "events",
    ]

    func makeHome() throws -> String { try QuireBinary.makeHome("cli-sync") }

    func status(_ home: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any] {
        let run = try await QuireBinary.execute(["status", "--json"], home: home)
        #expect(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
        let object = try run.object(sourceLocation: sourceLocation)
        #expect(
            Set(object.keys).isSuperset(of: Self.statusKeys), "every field SPEC lists: \(object.keys.sorted())",
            sourceLocation: sourceLocation)
        return object
    }

    func add(_ title: String, home: String) async throws -> String {
        let run = try await QuireBinary.execute(["add", title], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func setRemote(_ url: String, token: String, home: String) async throws {
        let run = try await QuireBinary.execute(["remote", "set", url, "--token", token], home: home)
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// Signs a home in to `server`, holding the account's keys when it is encrypted.
    func signIn(_ home: String, to server: SyncTestServer, token: String) async throws {
        try await setRemote(server.baseURL, token: token, home: home)
        try server.handKeys(toHome: home)
    }

    @Test func theSyncCommandIsRegisteredSoTheBinaryTestsRun() throws {
        #expect(QuireBinary.path != nil, "the quire executable is built beside the tests")
        #expect(QuireBinary.hasSyncCommand, "'quire sync' is one of the CLI's commands")
    }

    @Test func statusJSONCarriesEveryFieldBeforeAndAfterASync() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let home = try makeHome()
        defer { try? FileManager.default.removeItem(atPath: home) }

        let fresh = try await status(home)
        #expect(fresh["remote"] is NSNull)
        #expect(fresh["state"] as? String == "no-remote")
        #expect(fresh["lastSuccess"] is NSNull)
        #expect(fresh["nextRetry"] is NSNull)
        #expect(fresh["outbox"] as? Int == 0)
        #expect((fresh["events"] as? [Any])?.isEmpty == true)

        _ = try await add("Write the report", home: home)
        _ = try await add("Send it", home: home)
        #expect(try await status(home)["outbox"] as? Int == 2, "two creates wait")
        try await setRemote(server.baseURL, token: token, home: home)
        let before = Date().addingTimeInterval(-2)
        let sync = try await QuireBinary.execute(["sync"], home: home)
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(
            sync.stdout == "Synced · pushed 2, nothing new from other devices\n",
            "its own writes come back, but are not news")
        // A second device gets both, and says so.
        let other = try makeHome()
        defer { try? FileManager.default.removeItem(atPath: other) }
        try await setRemote(server.baseURL, token: token, home: other)
        let second = try await QuireBinary.execute(["sync", "--json"], home: other)
        let report = try second.object()
        #expect((report["pushed"] as? Int, report["pulled"] as? Int, report["updatedHere"] as? Int) == (0, 2, 2))

        let after = try await status(home)
        #expect(after["remote"] as? String == server.baseURL)
        #expect(after["state"] as? String == "idle")
        let lastSuccess = try #require(after["lastSuccess"] as? String)
        let when = try #require(Timestamp.date(from: lastSuccess), "RFC 3339: \(lastSuccess)")
        #expect(when >= before && when <= Date().addingTimeInterval(2))
        #expect(after["outbox"] as? Int == 0)
        #expect(after["inFlight"] as? Int == 0)
        #expect(after["nextRetry"] is NSNull, "no retry is scheduled after a success")
        #expect(after["deadLetters"] as? Int == 0)
        #expect(after["conflicts"] as? Int == 0)
        let events = try #require(after["events"] as? [[String: Any]])
        #expect(!events.isEmpty)
        #expect(events.allSatisfy { Set($0.keys).isSuperset(of: ["at", "kind", "message"]) })
        let times = events.compactMap { ($0["at"] as? String).flatMap(Timestamp.date(from:)) }
        #expect(times.count == events.count, "every event has its time")
        #expect(times == times.sorted(by: >), "newest first")
        let kinds = events.compactMap { $0["kind"] as? String }
        #expect(kinds.contains("PUSH_OK"))
        #expect(kinds.last == "SYNC_START" || kinds.count == 10, "the round's start is the oldest of this one round")
        let push = try #require(events.first { $0["kind"] as? String == "PUSH_OK" }?["message"] as? String)
        #expect(push.hasPrefix("pushed 2 ops") && push.contains("bytes") && push.hasSuffix("ms"), "\(push)")
    }

    @Test func syncExitsThreeWhileTheServerIsDownAndKeepsTheChanges() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        await server.stop()
        // Its port kept from the other tests' servers while it is down: one of them started
        // there once, and this device's sync met it (401) instead of a closed port.
        var downPort: RefusingPort? = try RefusingPort(port: server.port)
        let home = try makeHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        try await setRemote(server.baseURL, token: token, home: home)
        let id = try await add("Written offline", home: home)

        let down = try await QuireBinary.execute(["sync"], home: home)
        #expect(down.status == 3, "exit code 3: server unreachable")
        #expect(down.stdout.isEmpty)
        #expect(down.stderr.split(separator: "\n").count == 1, "one clear line: \(down.stderr)")
        #expect(down.stderr.contains("unreachable"))
        let offline = try await status(home)
        #expect(offline["state"] as? String == "offline")
        #expect(offline["outbox"] as? Int == 1, "the change is kept")
        #expect(offline["inFlight"] as? Int == 0, "nothing is left marked in flight")
        #expect(offline["lastSuccess"] is NSNull)
        let newest = try #require((offline["events"] as? [[String: Any]])?.first)
        #expect(newest["kind"] as? String == "RETRY")

        let json = try await QuireBinary.execute(["sync", "--json"], home: home)
        #expect(json.status == 3)
        #expect(try json.object()["outcome"] as? String == "unreachable")

        // The server comes back where it was: the kept change goes through.
        #expect(downPort != nil)
        downPort = nil
        try await server.start()
        defer { Task { await server.stop() } }
        let back = try await QuireBinary.execute(["sync"], home: home)
        #expect(back.status == 0, "\(back.stderr)")
        let synced = try await status(home)
        #expect(synced["state"] as? String == "idle")
        #expect(synced["outbox"] as? Int == 0)
        let show = try await QuireBinary.execute(["show", id, "--json"], home: home)
        #expect(try show.object()["syncState"] as? String == "synced")
    }

    @Test func aRateLimitedSyncKeepsTheChangeAndStatusSaysWhenTheServerAllowsTheNext() async throws {
        let server = try SyncTestServer()
        // A burst of two: one request for `quire remote set`'s token check, one for a sync.
        server.rateLimit = RateLimit(perSecond: 0.01, burst: 2)
        let token = try await server.addUser("ann")
        try await server.start()
        defer { Task { await server.stop() } }
        let home = try makeHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        try await setRemote(server.baseURL, token: token, home: home)
        _ = try await add("One", home: home)
        let started = Date()
        #expect(try await QuireBinary.execute(["sync"], home: home).status == 0, "one request fits the burst")
        _ = try await add("Two", home: home)

        let limited = try await QuireBinary.execute(["sync"], home: home)
        #expect(limited.status == 3, "the change is kept and sync will retry")
        #expect(limited.stderr.contains("slow down"), "\(limited.stderr)")
        let status = try await status(home)
        #expect(status["state"] as? String == "error")
        #expect(status["outbox"] as? Int == 1)
        let nextRetry = try #require(
            (status["nextRetry"] as? String).flatMap(Timestamp.date(from:)),
            "status says when the server allows the next attempt")
        // The server's Retry-After: 100 s at 0.01/s, less what the two syncs took (a loaded
        // machine can take many seconds over them), and less the time since.
        let lowest = 100 - Date().timeIntervalSince(started) - 2
        let wait = nextRetry.timeIntervalSinceNow
        #expect(wait > lowest && wait <= 101, "about the server's Retry-After of 100 s: \(wait)")
        let newest = try #require((status["events"] as? [[String: Any]])?.first)
        #expect(newest["kind"] as? String == "RETRY")
        #expect((newest["message"] as? String)?.contains("429") == true)
        let human = try await QuireBinary.execute(["status"], home: home)
        #expect(human.status == 0)
        let shown = human.stdout.firstMatch(of: #/next retry .* \(in (\d+)s\)/#).flatMap { Double($0.1) }
        let lowestShown = 100 - Date().timeIntervalSince(started) - 2
        #expect(shown.map { $0 > lowestShown && $0 <= 100 } == true, "the wait in seconds: \(human.stdout)")
    }

    @Test(arguments: AccountEncryption.allCases)
    func syncExitsFourWhenTheTokenIsRefused(_ encryption: AccountEncryption) async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann", encryption)
        defer { Task { await server.stop() } }
        let home = try makeHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        try await signIn(home, to: server, token: token)
        _ = try await add("Before the token went", home: home)
        #expect(try await QuireBinary.execute(["sync"], home: home).status == 0)
        _ = try await server.admin { try await $0.revokeTokens(userName: "ann") }
        _ = try await add("After", home: home)

        let refused = try await QuireBinary.execute(["sync"], home: home)
        #expect(refused.status == 4, "exit code 4: authentication refused")
        #expect(refused.stderr.contains("sign in again"), "\(refused.stderr)")
        #expect(!refused.stderr.contains(token) && !refused.stdout.contains(token), "the token is never printed")
        let paused = try await status(home)
        #expect(paused["state"] as? String == "auth-needed")
        #expect(paused["outbox"] as? Int == 1, "the change waits for the new token")
        #expect((paused["events"] as? [[String: Any]])?.first?["kind"] as? String == "AUTH")
        #expect(paused["lastSuccess"] is String, "the last success before the refusal is still shown")
        try server.expectNoContentLeaks()
    }

    @Test(arguments: AccountEncryption.allCases)
    func syncExitsFiveWhenItemsNeedReviewAndZeroOnceResolved(_ encryption: AccountEncryption) async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann", encryption)
        defer { Task { await server.stop() } }
        let (first, second) = (try makeHome(), try makeHome())
        defer {
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
        try await signIn(first, to: server, token: token)
        try await signIn(second, to: server, token: token)
        let id = try await add("Buy milk", home: first)
        #expect(try await QuireBinary.execute(["sync"], home: first).status == 0)
        #expect(try await QuireBinary.execute(["sync"], home: second).status == 0)
        #expect(try await QuireBinary.execute(["edit", id, "--title", "Buy oat milk"], home: first).status == 0)
        #expect(try await QuireBinary.execute(["edit", id, "--title", "Buy soy milk"], home: second).status == 0)
        #expect(try await QuireBinary.execute(["sync"], home: first).status == 0)

        let review = try await QuireBinary.execute(["sync"], home: second)
        #expect(review.status == 5, "exit code 5: synced, but an item needs review")
        // One line says what the sync did and what needs review; nothing else is printed.
        #expect(review.stdout.isEmpty, "\(review.stdout)")
        #expect(
            review.stderr
                == "quire: Synced · pushed 1, nothing new from other devices · 1 item needs review: see 'quire conflicts'\n",
            "\(review.stderr)")
        let state = try await status(second)
        #expect(state["conflicts"] as? Int == 1)
        #expect(state["outbox"] as? Int == 0, "the conflicting change waits in the conflict record, not the outbox")
        #expect((state["events"] as? [[String: Any]])?.contains { $0["kind"] as? String == "CONFLICT" } == true)
        let conflicts = try await QuireBinary.execute(["conflicts", "--json"], home: second)
        let entries = try #require(
            try JSONSerialization.jsonObject(with: Data(conflicts.stdout.utf8)) as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(entries.first?["id"] as? String == id)
        #expect(entries.first?["fields"] as? [String] == ["title"])
        let json = try await QuireBinary.execute(["sync", "--json"], home: second)
        #expect(json.status == 5)
        #expect(try json.object()["conflicts"] as? Int == 1)

        #expect(try await QuireBinary.execute(["resolve", id, "--keep", "remote"], home: second).status == 0)
        #expect(try await QuireBinary.execute(["sync"], home: second).status == 0)
        #expect(try await status(second)["conflicts"] as? Int == 0)
        #expect(try await QuireBinary.execute(["sync"], home: first).status == 0)
        let shown = try await QuireBinary.execute(["show", id, "--json"], home: first)
        #expect(try shown.object()["title"] as? String == "Buy oat milk")
        try server.expectNoContentLeaks()
    }
}

/// A server that is down is unreachable at once, not after the request's timeout: the HTTP
/// client must not keep retrying a connection that is refused.
@Suite struct SyncUnreachableTests {
    @Test func aRefusedConnectionFailsWithoutWaitingForTheTimeout() async throws {
        let refusing = try RefusingPort()
        let transport = HTTPSyncTransport(baseURL: refusing.baseURL, token: "unused", timeout: 3_600, now: { Date() })
        let request = SyncRequest(device: LiveIDs().next(), cursor: nil, limit: 1, ops: [])
        let result: Result<Void, SyncTransportError>? = await firstOf(deadline: 30) {
            do throws(SyncTransportError) {
                _ = try await transport.sync(request)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        withExtendedLifetime(refusing) {}  // the port stays ours until the answer came
        let answer = try #require(result, "no answer within 30 s although the port refuses connections")
        guard case .failure(.unreachable) = answer else {
            Issue.record("expected unreachable, got \(answer)")
            return
        }
    }
}

/// The value of `work`, or nil if it has not finished by the deadline (then it is cancelled).
func firstOf<T: Sendable>(deadline seconds: TimeInterval, _ work: @escaping @Sendable () async -> T) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await work() }
        group.addTask {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
