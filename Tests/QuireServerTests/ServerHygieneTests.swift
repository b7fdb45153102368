import Foundation
import QuireCore
import QuireProtocol
import QuireTestSupport
import Testing

/// What the real `quire-server` leaves on disk: private files.
@Suite(.serialized) struct ServerHygieneTests {
    @Test func theDatabaseItsSidecarsAndBackupsAreReadableByTheServersAccountOnly() async throws {
        let live = try await LiveFixture.start()
        defer { Task { await live.finish() } }
        let (folder, db, token, server) = (live.folder, live.db, live.token, live.server)
        _ = try await LiveClient.plain.round(
            server.baseURL, token: token,
            SyncRequest(device: Make.id(), cursor: nil, ops: [Make.create(Make.id(), title: "private")]))
        let backup = folder.appendingPathComponent("copy.db").path
        #expect(try ServerProcess.command(["backup", "--db", db, "--output", backup]).status == 0)

        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.contains("server.db-wal") && files.contains("copy.db"), "\(files)")
        for file in files {
            let mode =
                try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(file).path)[
                    .posixPermissions] as? Int
            #expect(mode == 0o600, "\(file) has mode \(String(mode ?? 0, radix: 8))")
        }
        await server.stop()
    }
}
