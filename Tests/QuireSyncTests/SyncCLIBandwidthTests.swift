import Foundation
import GRDB
import QuireCore
import QuireStore
import Synchronization
import Testing

@testable import QuireSync

/// `quire sync` and the app send the same bytes for the same changes: one transport, one rule
/// for compression, whether the process has heard from the server before or not.
@Suite(.serialized) struct SyncCLIBandwidthTests {
    func makeHome() throws -> String { try QuireBinary.makeHome("cli-bandwidth") }

    /// A consistent copy of a store file, its WAL folded in.
    static func copyStore(from source: String, to destination: String) throws {
        let queue = try DatabaseQueue(path: source)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [destination]) }
        try queue.close()
    }

    /// Syncs the store in `home` with the engine the app runs, after this process learned
    /// whether the server takes gzip (`takesGzip` says what it is told); the bytes sent.
    static func syncInProcess(home: String, server: SyncTestServer, token: String, takesGzip: Bool) async throws -> Int
    {
        let store = try AppDatabase.open(path: home + "/quire.db")
        let settings = SyncSettings(configPath: home + "/config.toml", credentialsPath: home + "/credentials")
        try settings.setRemote(SyncRemote(url: server.baseURL, token: token))
        HTTPSyncTransport.serversTakingGzip.withLock { $0[server.baseURL] = takesGzip }
        let engine = SyncSetup.engine(for: store, settings: settings, environment: store.environment)
        let outcome = await engine.runToCompletion()
        #expect(outcome == .caughtUp, "\(outcome)")
        return engine.recentRounds.reduce(0) { $0 + $1.bytesSent }
    }

    @Test func theCLISendsWhatTheAppSendsForTheSameThreeHundredItems() async throws {
        let (server, ann) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let bob = try await server.addUser("bob")

        // One store with 300 new items, and copies of it: the same changes, op ids and all.
        let cliHome = try makeHome()
        let appHome = try makeHome()
        defer {
            try? FileManager.default.removeItem(atPath: cliHome)
            try? FileManager.default.removeItem(atPath: appHome)
        }
        let entries = (0..<300).map { index in
            "{\"title\": \"Item \(index)\", \"body\": \"Line one of item \(index)\\nLine two\\n\", \"kind\": \"task\"}"
        }
        let file = cliHome + "/items.json"
        try ("[" + entries.joined(separator: ",\n") + "]").write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try await QuireBinary.execute(["import", file], home: cliHome)
        #expect(imported.status == 0, "\(imported.stderr)")
        let plainHome = try makeHome()
        defer { try? FileManager.default.removeItem(atPath: plainHome) }
        for copy in [appHome, plainHome] { try Self.copyStore(from: cliHome + "/quire.db", to: copy + "/quire.db") }

        // The CLI: a fresh process whose first request is the push.
        let set = try await QuireBinary.execute(["remote", "set", server.baseURL, "--token", ann], home: cliHome)
        #expect(set.status == 0, "\(set.stderr)")
        let synced = try await QuireBinary.execute(["sync", "--json"], home: cliHome)
        #expect(synced.status == 0, "\(synced.stderr)")
        let cliBytes = try #require(try synced.object()["bytesSent"] as? Int)

        // The app: its engine, in a process that has already heard from the server (the app
        // talks to it from the moment it opens), pushing the same changes for another user.
        let appBytes = try await Self.syncInProcess(home: appHome, server: server, token: bob, takesGzip: true)
        // The same changes once more, as sent to a server that takes no gzip: the plain size.
        let plainBytes = try await Self.syncInProcess(
            home: plainHome, server: server, token: try await server.addUser("cy"), takesGzip: false)

        print("300 new items: quire sync sent \(cliBytes) B, the app \(appBytes) B, uncompressed \(plainBytes) B")
        #expect(cliBytes == appBytes)
        #expect(cliBytes * 2 < plainBytes, "compressed: \(cliBytes) B for \(plainBytes) B")
    }
}
