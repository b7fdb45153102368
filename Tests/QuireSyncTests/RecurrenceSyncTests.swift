import Foundation
import QuireTestSupport
import Testing

/// Recurrence across devices (issue 30, item 2): two devices that complete the same occurrence
/// offline end with exactly one next occurrence, and nothing to review: by construction (the
/// next occurrence's id and fields follow from the completed one), not by a clean-up.
///
/// Real processes: the `quire` executable on two homes, syncing through the real server on a
/// loopback port.
@Suite(.serialized) struct RecurrenceSyncTests {
    private func home() throws -> String {
        let home = NSTemporaryDirectory() + "quire-recur-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        return home
    }

    /// Runs `quire` and expects it to succeed; returns what it printed.
    @discardableResult
    private func quire(_ arguments: String..., home: String) async throws -> String {
        let run = try await QuireBinary.execute(arguments, home: home)
        #expect(run.status == 0, "quire \(arguments.joined(separator: " ")): \(run.stderr)")
        return run.stdout
    }

    /// Every live item (done ones and waiting ones included), as `quire list --all --json`.
    private func items(home: String) async throws -> [[String: Any]] {
        let run = try await QuireBinary.execute(["list", "--all", "--json"], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        return list.filter { $0["deleted"] as? Bool == false }
    }

    @Test func twoDevicesCompletingTheSameOccurrenceOfflineMakeOneNextOccurrence() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let (a, b) = (try home(), try home())
        defer {
            try? FileManager.default.removeItem(atPath: a)
            try? FileManager.default.removeItem(atPath: b)
        }
        for device in [a, b] { try await quire("remote", "set", server.baseURL, "--token", token, home: device) }
        let id = try await quire(
            "add", "Pay the rent", "--task", "--due", "2026-01-31", "--recur", "monthly", "--tag", "home", home: a
        )
        .trimmingCharacters(in: .whitespacesAndNewlines)
        try await quire("sync", home: a)
        try await quire("sync", home: b)

        // Both offline: each completes the occurrence, and each brings up the next one.
        try await quire("done", id, home: a)
        try await quire("done", id, home: b)
        for device in [a, b] {
            let open = try await items(home: device).filter { $0["done"] as? Bool == false }
            #expect(open.count == 1 && open.first?["due"] as? String == "2026-02-28", "\(open)")
        }

        for device in [a, b, a, b] {
            let run = try await QuireBinary.execute(["sync"], home: device)
            #expect(run.status == 0, "quire sync: exit \(run.status): \(run.stdout) \(run.stderr)")
        }

        for device in [a, b] {
            let all = try await items(home: device)
            let open = all.filter { $0["done"] as? Bool == false }
            #expect(open.count == 1, "one next occurrence, not \(open.count): \(open)")
            #expect(open.first?["due"] as? String == "2026-02-28")
            #expect(open.first?["recur"] as? String == "monthly@31")
            #expect(all.filter { $0["done"] as? Bool == true }.map { $0["id"] as? String } == [id])
            let conflicts = try await quire("conflicts", "--json", home: device)
            #expect(
                (try JSONSerialization.jsonObject(with: Data(conflicts.utf8)) as? [Any])?.isEmpty == true,
                "nothing to review: \(conflicts)")
            let status = try await quire("status", "--json", home: device)
            let fields = try #require(try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any])
            #expect(fields["conflicts"] as? Int == 0 && fields["outbox"] as? Int == 0, "\(fields)")
        }
        let onA = try await items(home: a).compactMap { $0["id"] as? String }.sorted()
        let onB = try await items(home: b).compactMap { $0["id"] as? String }.sorted()
        #expect(onA == onB)

        // Reopened and completed again: the same next occurrence, not a second one.
        try await quire("reopen", id, home: a)
        try await quire("done", id, home: a)
        try await quire("sync", home: a)
        try await quire("sync", home: b)
        for device in [a, b] {
            #expect(try await items(home: device).filter { $0["done"] as? Bool == false }.count == 1)
        }
    }
}
