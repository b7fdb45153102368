import Foundation
import QuireCore
import QuireStore
import QuireTestSupport
import Testing

@testable import QuireSync

/// A device of an encrypted account that holds no keys is locked, whatever its last round met:
/// the report the status bar and `U` go by says so from the device's own state (a refusal for
/// want of keys kept in the store, and no keys in the credentials file), not from the newest
/// event of the log.
@Suite(.serialized) struct SyncLockedDeviceTests {
    @Test func aLockedDeviceThatGoesOfflineIsStillLockedUntilItHoldsKeys() async throws {
        let (server, token) = try await SyncTestServer.running(.encrypted)
        let home = NSTemporaryDirectory() + "quire-locked-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let settings = SyncSettings(configPath: home + "/config.toml", credentialsPath: home + "/credentials")
        try settings.setRemote(SyncRemote(url: server.baseURL, token: token))
        let database = try AppDatabase.temporary(environment: .live)
        let engine = SyncSetup.engine(
            for: database, settings: settings, environment: database.environment, timeout: SyncTestServer.clientTimeout)
        func report() throws -> SyncStatusReport {
            try SyncStatusReport.read(database: database, settings: settings, now: Date())
        }

        #expect(await engine.run(.normal) == .encryptionLocked)
        #expect(try report().summary.unlockNeeded, "refused for want of keys")

        await server.stop()
        guard case .networkError = await engine.run(.normal) else {
            Issue.record("the stopped server was reached")
            return
        }
        let offline = try report()
        #expect(offline.state == .offline)
        #expect(offline.summary.unlockNeeded, "still locked: the offline round knows nothing of keys")
        let line = offline.summary.statusLine(now: Date(), timeZone: .gmt)
        #expect(line.contains("offline") && line.contains("encrypted: quire encryption unlock"), "both: \(line)")

        // Unlocked (the keys written, as `quire encryption unlock` leaves them): not locked any
        // more, before any round has gone through.
        try server.handKeys(toHome: home)
        #expect(try !report().summary.unlockNeeded)

        // A round that goes through ends the refusal the store kept.
        try await server.start()
        defer { Task { await server.stop() } }
        #expect(await engine.run(.normal) == .caughtUp)
        #expect(try database.syncMeta().lockedAt == nil)
    }
}
