import AsyncHTTPClient
import Foundation
import GRDB
import QuireCore
import QuireProtocol
import QuireTestSupport
import Synchronization
import Testing

@testable import QuireServer

/// The batches the load writers got acknowledged, each with the moment its answer arrived.
final class Acknowledged: Sendable {
    private let state = Mutex<(batches: [(at: ContinuousClock.Instant, items: [String])], stopped: Bool)>(([], false))

    func add(_ items: [String]) {
        let now = ContinuousClock.now
        state.withLock { $0.batches.append((now, items)) }
    }

    var count: Int { state.withLock { $0.batches.count } }
    var stopped: Bool { state.withLock { $0.stopped } }
    func stop() { state.withLock { $0.stopped = true } }

    /// The items of the batches acknowledged between two moments.
    func batches(from start: ContinuousClock.Instant? = nil, to end: ContinuousClock.Instant) -> [[String]] {
        state.withLock { state in
            state.batches.filter { batch in batch.at < end && start.map { batch.at > $0 } ?? true }.map(\.items)
        }
    }
}

/// `quire-server backup`, `restore` and `migrate` on real files, with the real server and the
/// real `quire` client as devices.
@Suite(.serialized) struct BackupTests {
    /// A device: the built `quire` with a home of its own.
    struct Device {
        let home: String

        init() throws {
            home = try ServerProcessTests.temporaryFolder().path
        }

        func run(_ arguments: [String]) async throws -> (status: Int32, out: String, err: String) {
            let environment = ["QUIRE_HOME": home, "HOME": home, "PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
            return try await BackupTests.detached {
                try ServerProcess.command(arguments, executable: try ServerProcess.client, environment: environment)
            }
        }

        /// Runs a command that must succeed; its stdout, trimmed.
        @discardableResult
        func must(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
            let result = try await run(arguments)
            try #require(
                result.status == 0, "quire \(arguments.joined(separator: " ")): \(result.err)",
                sourceLocation: sourceLocation)
            return result.out.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// The ids of the items the device has.
        func itemIDs() async throws -> Set<String> {
            let text = try await must(["list", "--all", "--json"])
            let items = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
            return Set(items.compactMap { $0["id"] as? String })
        }

        func remove() { try? FileManager.default.removeItem(atPath: home) }
    }

    /// Runs blocking work (a child process) on a thread of its own, off the task pool.
    static func detached<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    static func server(_ arguments: [String]) async throws -> (status: Int32, out: String, err: String) {
        try await detached { try ServerProcess.command(arguments) }
    }

    @Test func aBackupUnderWriteLoadHoldsEveryAcknowledgedWriteAndDevicesSyncAgainAfterTheRestore() async throws {
        let folder = try ServerProcessTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("server.db").path
        let backup = folder.appendingPathComponent("backup.db").path
        let token = try await Self.server(["user", "add", "ann", "--db", db]).out.trimmingCharacters(
            in: .whitespacesAndNewlines)
        // Started again on its port after the restore: one the kernel does not hand out.
        let server = try await ServerProcess.restartable(serve: ["--db", db, "--rate-limit", "0"])
        defer { Task { await server.stop() } }

        // Two real devices with items of their own, synced before the backup.
        let laptop = try Device()
        let phone = try Device()
        defer {
            laptop.remove()
            phone.remove()
        }
        var deviceItems = Set<String>()
        for device in [laptop, phone] {
            try await device.must(["remote", "set", server.baseURL, "--token", token])
            for index in 0..<3 { deviceItems.insert(try await device.must(["add", "before the backup \(index)"])) }
            try await device.must(["sync"])
        }

        // Writers push batches without pause; each acknowledged batch is stamped with when its
        // answer arrived.
        let acknowledged = Acknowledged()
        let writers = (0..<2).map { _ in
            Task {
                for _ in 0..<2_000 where !acknowledged.stopped {
                    let ops = (0..<20).map { _ in Make.create(Make.id(), title: "load") }
                    _ = try await LiveClient.plain.round(
                        server.baseURL, token: token, SyncRequest(device: Make.id(), cursor: nil, ops: ops))
                    acknowledged.add(ops.map(\.item))
                }
            }
        }
        func waitForBatches(_ count: Int) async throws {
            let deadline = ContinuousClock.now + .seconds(120)
            while acknowledged.count < count {
                try #require(ContinuousClock.now < deadline, "the writers did not get \(count) batches through")
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        try await waitForBatches(10)
        let oldEpoch = try await Self.server(["epoch", "show", "--db", db]).out

        let backupStarted = ContinuousClock.now
        let backedUp = try await Self.server(["backup", "--db", db, "--output", backup])
        let backupEnded = ContinuousClock.now
        #expect(backedUp.status == 0, "\(backedUp.err)")
        #expect(backedUp.out.contains("backed up 1 user"), "\(backedUp.out)")
        let writtenDuringBackup = acknowledged.batches(from: backupStarted, to: backupEnded).count
        // Writes go on after it; then the load stops.
        try await waitForBatches(acknowledged.count + 5)
        acknowledged.stop()
        for writer in writers { try await writer.value }

        // Devices write after the backup: the restored server lacks this until they re-send.
        // The phone edits an item the laptop made before the backup; the laptop pulls the edit.
        let lateItem = try await laptop.must(["add", "after the backup"])
        deviceItems.insert(lateItem)
        try await laptop.must(["sync"])
        let edited = try #require(try await laptop.itemIDs().sorted().first { deviceItems.contains($0) })
        try await phone.must(["sync"])
        try await phone.must(["edit", edited, "--title", "edited on the phone after the backup", "--body", "kept\n"])
        try await phone.must(["sync"])
        try await laptop.must(["sync"])

        // The backup is a sound SQLite file holding every write acknowledged before it began.
        let summary = try SQLiteBackup.check(backup)
        let ackedBefore = acknowledged.batches(to: backupStarted).flatMap { $0 }
        #expect(summary.items >= ackedBefore.count + 6)

        // Restore refuses while the server runs, and changes nothing.
        let refused = try await Self.server(["restore", "--db", db, "--input", backup])
        #expect(refused.status == 1)
        #expect(refused.err.contains("in use") && refused.err.split(separator: "\n").count == 1, "\(refused.err)")
        #expect(try await Self.server(["epoch", "show", "--db", db]).out == oldEpoch)

        let port = server.port
        await server.stop()
        let restored = try await Self.server(["restore", "--db", db, "--input", backup])
        #expect(restored.status == 0, "\(restored.err)")
        let newEpoch = try await Self.server(["epoch", "show", "--db", db]).out
        #expect(!newEpoch.isEmpty && newEpoch != oldEpoch, "the restore renews the epoch")
        #expect(restored.out.contains(newEpoch.trimmingCharacters(in: .whitespacesAndNewlines)))
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix("server.db.replaced-")
        }
        #expect(
            kept.contains { !$0.hasSuffix("-wal") } && restored.err.contains("kept as"),
            "the replaced database is kept: \(kept)")

        let again = try await ServerProcess(serve: ["--db", db, "--rate-limit", "0", "--port", String(port)])
        defer { Task { await again.stop() } }
        let inBackup = try await LiveClient.plain.liveItemIDs(again.baseURL, token: token)
        let missing = ackedBefore.filter { !inBackup.contains($0) }
        #expect(
            missing.isEmpty,
            "\(missing.count) of \(ackedBefore.count) writes acknowledged before the backup began are not in it")
        #expect(!inBackup.contains(lateItem))
        print(
            "backup under load: \(ackedBefore.count) items acknowledged before it began, \(writtenDuringBackup) batches acknowledged while it ran; it holds \(summary.items) items"
        )

        // Devices notice the new epoch, resync and send back what the backup lacks.
        for device in [laptop, phone, laptop, phone] { try await device.must(["sync"]) }
        let onServer = try await LiveClient.plain.liveItemIDs(again.baseURL, token: token)
        #expect(
            deviceItems.subtracting(onServer).isEmpty,
            "items of the devices the server lacks: \(deviceItems.subtracting(onServer))")
        #expect(Set(ackedBefore).subtracting(onServer).isEmpty)
        for device in [laptop, phone] {
            #expect(
                deviceItems.subtracting(try await device.itemIDs()).isEmpty, "a device lacks items after the resync")
            let show = try await device.must(["show", edited, "--json"])
            #expect(show.contains("edited on the phone after the backup"), "the acknowledged edit survives: \(show)")
            let conflicts = try await device.must(["conflicts", "--json"])
            let records = try JSONSerialization.jsonObject(with: Data(conflicts.utf8)) as? [Any]
            #expect(records?.isEmpty == true, "nothing needs review: \(conflicts)")
        }
        // Both devices hold the same bytes: every field, revision and time.
        #expect(
            try await laptop.must(["list", "--all", "--json"]) == (try await phone.must(["list", "--all", "--json"])))
        await again.stop()
    }

    @Test func badBackupAndRestoreInputGetsOneLineAndChangesNothing() async throws {
        let folder = try ServerProcessTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("server.db").path
        let backup = folder.appendingPathComponent("backup.db").path
        #expect(try await Self.server(["user", "add", "ann", "--db", db]).status == 0)
        let epoch = try await Self.server(["epoch", "show", "--db", db]).out

        let cases: [([String], String)] = [
            (["backup", "--db", folder.appendingPathComponent("none.db").path, "--output", backup], "no database"),
            (["backup", "--db", db, "--output", db], "already exists"),
            (["restore", "--db", db, "--input", backup], "no backup"),
            (["restore", "--db", db, "--input", "/etc/hostname"], "SQLite"),
        ]
        for (arguments, message) in cases {
            let result = try await Self.server(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(
                result.err.contains(message) && result.err.split(separator: "\n").count == 1,
                "\(arguments): \(result.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: backup))
        #expect(try await Self.server(["epoch", "show", "--db", db]).out == epoch)
        #expect(try await Self.server(["user", "list", "--db", db]).out.contains("ann"))
    }

    @Test func aDatabaseFromANewerServerIsRefusedAndMigrateSaysWhatItDid() async throws {
        let folder = try ServerProcessTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("server.db").path

        let created = try await Self.server(["migrate", "--db", db])
        #expect(created.status == 0)
        #expect(created.out == "created the tables at schema version \(SchemaVersion.current)\n")
        let current = try await Self.server(["migrate", "--db", db])
        #expect(current.out == "already at schema version \(SchemaVersion.current); nothing to do\n")
        #expect(try await Self.server(["user", "add", "ann", "--db", db]).status == 0)

        // A later version wrote the database: every command refuses it, in one line, and
        // leaves it as it is.
        try await DatabaseQueue(path: db).write { db in
            try db.execute(sql: "UPDATE meta SET value = '99' WHERE key = 'schema'")
        }
        for arguments in [
            ["migrate", "--db", db], ["user", "list", "--db", db], ["serve", "--db", db, "--port", "0"],
        ] {
            let result = try await Self.server(arguments)
            #expect(result.status == 1, "\(arguments): \(result.err)")
            #expect(
                result.err.contains("schema version 99") && result.err.contains("newer"), "\(arguments): \(result.err)")
            #expect(result.err.split(separator: "\n").count == 1, "\(arguments): \(result.err)")
        }
        let backup = folder.appendingPathComponent("backup.db").path
        #expect(try await Self.server(["backup", "--db", db, "--output", backup]).status == 1)
        let schema = try await DatabaseQueue(path: db).read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'schema'")
        }
        #expect(schema == "99")
    }
}
