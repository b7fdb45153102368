import Crypto
import Foundation
import GRDB
import Logging
import QuireTestSupport
import Testing

@testable import QuireServer

/// The server purges an attached file once no item can reference it, and never wrongly (issue
/// 32): built `quire`s on two devices, the real server on a loopback port, its purge run as the
/// running server runs it, for a plain and an encrypted account.
@Suite(.serialized) struct AttachmentPurgeTests {
    @discardableResult
    func quire(_ home: String, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> String
    {
        try await QuireBinary.expectingSuccess(arguments, home: home, sourceLocation: sourceLocation).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `body` with two devices signed in to a running server; all is removed after.
    func withTwoDevices(
        _ encryption: AccountEncryption, _ body: (SyncTestServer, String, String) async throws -> Void
    ) async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann", encryption)
        defer { Task { await server.stop() } }
        let (a, b) = (try QuireBinary.makeHome("file-purge"), try QuireBinary.makeHome("file-purge"))
        defer { for home in [a, b] { try? FileManager.default.removeItem(atPath: home) } }
        for home in [a, b] {
            try await quire(home, "remote", "set", server.baseURL, "--token", token)
            try server.handKeys(toHome: home)
        }
        try await body(server, a, b)
    }

    /// Writes `size` random bytes beside `home`'s data; the path.
    func randomFile(in home: String, _ name: String, size: Int) throws -> String {
        var generator = SystemRandomNumberGenerator()
        let path = home + "/" + name
        try Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(
            to: URL(fileURLWithPath: path))
        return path
    }

    /// The server's purge as the running server makes it, a day after now with no retention:
    /// every tombstone goes, and every file whose claiming items are all gone.
    func purgeServer(_ server: SyncTestServer) async throws {
        let path = server.databasePath
        let store = try await SimulatedSystem.retryingLock { try SQLiteStore(path: path) }
        let later = Date().addingTimeInterval(86_400)
        await PurgeService(
            store: store, chunks: store, retentionDays: 0, interval: .seconds(3600), now: { later },
            logger: Logger(label: "file-purge-test")
        ).purgeOnce()
    }

    /// Deletes `id` on `home`, syncs the delete, and runs the server's purge.
    func deleteAndPurge(_ id: String, on home: String, _ server: SyncTestServer) async throws {
        try await quire(home, "rm", id)
        try await quire(home, "sync")
        try await purgeServer(server)
    }

    func serverFiles(_ server: SyncTestServer) throws -> Int {
        let queue = try DatabaseQueue(path: server.databasePath)
        defer { try? queue.close() }
        return try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM files") ?? -1 }
    }

    /// `quire attachment get` on `home`: the bytes it saved, nil when it failed.
    func get(_ home: String, _ id: String, _ name: String) async throws -> Data? {
        let output = home + "/got-" + name
        let run = try await QuireBinary.execute(["attachment", "get", id, name, "--output", output], home: home)
        return run.status == 0 ? FileManager.default.contents(atPath: output) : nil
    }

    @Test(arguments: AccountEncryption.allCases)
    func aDeletedItemsFileGoesOnceItsTombstoneIsPurged(_ encryption: AccountEncryption) async throws {
        try await withTwoDevices(encryption) { server, a, _ in
            let id = try await quire(a, "add", "Trip")
            try await quire(a, "attach", id, try randomFile(in: a, "tickets.bin", size: 1_500_000))
            try await quire(a, "sync")
            #expect(try serverFiles(server) == 1)
            try await purgeServer(server)
            #expect(try serverFiles(server) == 1, "its item is on the server: the file stays")

            try await deleteAndPurge(id, on: a, server)
            #expect(try serverFiles(server) == 0, "its only item is gone for good: the file went")
        }
    }

    /// The second item gets a file this device has recorded as uploaded: nothing travels but
    /// the claim, and the first item's purge leaves the file for the second.
    @Test(arguments: AccountEncryption.allCases)
    func aFileOnTwoItemsStaysWhenOneIsPurgedAndReachesANewDeviceByteForByte(
        _ encryption: AccountEncryption
    ) async throws {
        try await withTwoDevices(encryption) { server, a, b in
            let path = try randomFile(in: a, "plan.bin", size: 2_200_000)
            let first = try await quire(a, "add", "Kitchen")
            try await quire(a, "attach", first, path)
            try await quire(a, "sync")
            let second = try await quire(a, "add", "Bathroom")
            try await quire(a, "attach", second, path)
            try await quire(a, "sync")
            try await deleteAndPurge(first, on: a, server)
            #expect(try serverFiles(server) == 1, "the second item still refers to it")

            try await quire(b, "sync")
            let got = try await get(b, second, "plan.bin")
            #expect(got == FileManager.default.contents(atPath: path), "the new device gets it byte for byte")
        }
    }

    /// An item restored from the trash after the server purged it and its file: the device
    /// that holds the bytes sends them again and claims them, and the other device gets them.
    @Test(arguments: AccountEncryption.allCases)
    func anItemRestoredAfterThePurgeBringsItsFileBack(_ encryption: AccountEncryption) async throws {
        try await withTwoDevices(encryption) { server, a, b in
            let path = try randomFile(in: a, "scan.bin", size: 1_200_000)
            let id = try await quire(a, "add", "Passport")
            try await quire(a, "attach", id, path)
            try await quire(a, "sync")
            try await deleteAndPurge(id, on: a, server)
            #expect(try serverFiles(server) == 0)

            try await quire(a, "restore", id)
            try await quire(a, "sync")
            #expect(try serverFiles(server) == 1, "sent again")
            let state = try await quire(a, "attachments", id)
            #expect(state.contains("here"), "\(state)")
            try await purgeServer(server)
            #expect(try serverFiles(server) == 1, "claimed again: its item is back")

            try await quire(b, "sync")
            let got = try await get(b, id, "scan.bin")
            #expect(got == FileManager.default.contents(atPath: path), "the other device gets it byte for byte")
        }
    }
}
