import Foundation
import QuireTestSupport
import Testing

/// `quire-loadgen` is what the server's benchmark figures rest on: it must keep speaking the
/// protocol the server speaks, so that a change to either shows here and not first in a bench.
@Suite(.serialized) struct LoadGeneratorTests {
    static var loadgen: URL {
        get throws {
            guard let path = BuiltProduct.path("quire-loadgen") else {
                throw ChildProcessError("quire-loadgen was not found beside the test bundle")
            }
            return URL(fileURLWithPath: path)
        }
    }

    /// The cells of each Markdown table row printed (`| a | b |` → ["a", "b"]).
    static func rows(_ output: String) -> [[String]] {
        output.split(separator: "\n").filter { $0.hasPrefix("|") }.map { line in
            line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    @Test func devicesApplyEveryRoundWithoutErrorsAndAFirstPullMatchesTheStateHash() async throws {
        let folder = try ServerProcessTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("server.db").path
        let tokens = folder.appendingPathComponent("tokens").path
        let pullerToken = folder.appendingPathComponent("puller").path
        var lines: [String] = []
        for name in ["ann", "bob"] {
            let added = try await BackupTests.server(["user", "add", name, "--db", db])
            #expect(added.status == 0)
            lines.append(added.out.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try lines.joined(separator: "\n").write(toFile: tokens, atomically: true, encoding: .utf8)
        let puller = try await BackupTests.server(["user", "add", "puller", "--db", db])
        try puller.out.write(toFile: pullerToken, atomically: true, encoding: .utf8)
        let server = try await ServerProcess(serve: ["--db", db, "--rate-limit", "0"])
        defer { Task { await server.stop() } }

        // Four devices (two per user), batches above the size the client compresses.
        let devices = try await BackupTests.detached {
            try ServerProcess.command(
                [
                    "devices", "--url", server.baseURL, "--tokens", tokens, "--levels", "4", "--batch", "50",
                    "--max-rounds", "5", "--seconds", "30", "--label", "t", "--rows-only",
                ], executable: try Self.loadgen)
        }
        #expect(devices.status == 0, "\(devices.err)")
        let row = try #require(Self.rows(devices.out).first)
        // | label | devices | applied ops/s | rounds/s | p50 | p99 | errors |
        #expect(row.count == 7)
        #expect(row[1] == "4")
        #expect((Int(row[2]) ?? 0) > 0, "no op applied: \(row)")
        #expect(row[6] == "0", "rounds failed: \(row)")

        let pull = try await BackupTests.detached {
            try ServerProcess.command(
                [
                    "first-pull", "--url", server.baseURL, "--tokens", pullerToken, "--items", "1200", "--limit",
                    "500", "--label", "t",
                ], executable: try Self.loadgen)
        }
        #expect(pull.status == 0, "\(pull.err)")
        let pulled = try #require(Self.rows(pull.out).last)
        // | label | items | time | items/s | state hash matches |
        #expect(pulled.count == 5)
        #expect(pulled[1] == "1200")
        #expect(pulled[4] == "yes")
    }
}
