import Foundation
import QuireCore
import QuireStore
import QuireTestSupport
import Testing

@testable import QuireSync

/// The built `quire` executable, beside the test bundle.
enum QuireBinary {
    static var path: String? { BuiltProduct.path("quire") }

    /// The environment of every run: its own home, nothing from the person running the tests.
    static func environment(home: String) -> [String: String] {
        ["QUIRE_HOME": home, "HOME": home, "PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
    }

    /// True once `quire sync` is one of the CLI's commands.
    static var hasSyncCommand: Bool {
        guard let path else { return false }
        return (try? run(path, ["sync", "--help"], home: NSTemporaryDirectory()).status) == 0
    }

    @discardableResult
    static func run(_ path: String, _ arguments: [String], home: String) throws -> (status: Int32, output: String) {
        let output = try ChildRun.run(path, arguments, environment: environment(home: home), mergingOutput: true)
        return (output.status, output.stdout)
    }
}

@Suite(.serialized) struct SyncKillTests {
    /// `quire sync` killed with SIGKILL at random moments, many times: every item arrives on
    /// the server exactly once, and the local store ends with nothing left to send.
    /// Not gated on the binary: a missing `quire` fails here instead of skipping silently.
    @Test(arguments: AccountEncryption.allCases)
    func aKilledSyncLosesNothingAndDuplicatesNothing(_ encryption: AccountEncryption) async throws {
        let quire = try #require(QuireBinary.path)
        let (server, token) = try await SyncTestServer.running(user: "ann", encryption)
        defer { Task { await server.stop() } }
        let home = NSTemporaryDirectory() + "quire-kill-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(
            try await QuireBinary.execute(["remote", "set", server.baseURL, "--token", token], home: home).status == 0)
        try server.handKeys(toHome: home)

        var created: [String] = []
        var random = SystemRandomNumberGenerator()
        for round in 0..<12 {
            // Local work between the kills, written as the CLI writes it.
            let store = try AppDatabase.open(path: home + "/quire.db", environment: .live)
            for index in 0..<150 {
                created.append(try store.create(NewItem(title: "Item \(round)-\(index)", body: "line \(index)\n")).id)
            }
            if let some = created.randomElement(using: &random) {
                try store.update(some, fields: [.pinned: .bool(true)])
            }
            let process = try SpawnedProcess(
                quire, ["sync"], environment: ["QUIRE_HOME": home, "HOME": home, "PATH": "/usr/bin:/bin"])
            try await Task.sleep(nanoseconds: UInt64.random(in: 0...200_000_000, using: &random))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let final = try await QuireBinary.execute(["sync"], home: home)
        #expect(final.status == 0, "\(final.stderr)")

        let store = try AppDatabase.open(path: home + "/quire.db", environment: .live)
        #expect(try store.outboxCounts().waiting == 0)
        #expect(try store.items().allSatisfy { $0.syncState == .synced })
        let other = Device("other", server: server, token: token)
        #expect(await other.sync() == .caughtUp)
        #expect(other.storage.allItems.count == created.count, "every item arrived, once")
        #expect(Set(other.storage.allItems.map(\.id)) == Set(created))
        #expect(other.storage.allItems.allSatisfy { $0.rev <= 2 }, "a create and at most one pin, never replayed twice")
        #expect(other.unreadable.isEmpty, "every item opens")
        try server.expectNoContentLeaks()
    }
}
