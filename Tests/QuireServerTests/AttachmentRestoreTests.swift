import Foundation
import QuireTestSupport
import Testing

/// A server restored from a backup made before a file was uploaded lacks that file's chunks,
/// though the device that uploaded it was told it was kept. As with items, the device that
/// holds the file sends it again once it sees the new epoch, so the other device still gets it
/// byte for byte (the real server, `quire-server backup` and `restore`, two real `quire`s).
@Suite(.serialized) struct AttachmentRestoreTests {
    typealias Device = BackupTests.Device

    @Test(arguments: [false, true])
    func aFileUploadedAfterTheBackupIsSentAgainAfterTheRestore(encrypted: Bool) async throws {
        let fixture = try await LiveFixture.start(["--rate-limit", "0"], restartable: true)
        let (db, server) = (fixture.db, fixture.server)
        let laptop = try Device()
        let phone = try Device()
        defer {
            for device in [laptop, phone] { device.remove() }
            Task { await fixture.finish() }
        }
        for device in [laptop, phone] {
            try await device.must(["remote", "set", server.baseURL, "--token", fixture.token])
        }
        if encrypted {
            let enabled = try await EncryptionEndToEndTests.run(
                laptop, ["encryption", "enable", "--passphrase-stdin"], stdin: EncryptionEndToEndTests.passphrase)
            try #require(enabled.status == 0, "\(enabled.err)")
            let unlocked = try await EncryptionEndToEndTests.run(
                phone, ["encryption", "unlock", "--passphrase-stdin"], stdin: EncryptionEndToEndTests.passphrase)
            try #require(unlocked.status == 0, "\(unlocked.err)")
        }
        let id = try await laptop.must(["add", "Trip"])
        try await laptop.must(["sync"])
        try await phone.must(["sync"])

        let backup = fixture.path("backup.db")
        let backedUp = try await BackupTests.server(["backup", "--db", db, "--output", backup])
        try #require(backedUp.status == 0, "\(backedUp.err)")

        // After the backup, the laptop attaches a file of three chunks and uploads it; the server
        // answers that it holds the file.
        let tickets = fixture.path("tickets.bin")
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<(2_500_000)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try bytes.write(to: URL(fileURLWithPath: tickets))
        try await laptop.must(["attach", id, tickets])
        try await laptop.must(["sync"])
        #expect(try await laptop.must(["attachments", id]).contains("here"))

        let port = server.port
        await server.stop()
        let restored = try await BackupTests.server(["restore", "--db", db, "--input", backup])
        try #require(restored.status == 0, "\(restored.err)")
        let again = try await ServerProcess(serve: ["--db", db, "--rate-limit", "0", "--port", String(port)])
        defer { Task { await again.stop() } }

        // The laptop notices the new epoch at its next sync and sends back what the server lost:
        // the item's new version and the file's chunks.
        try await laptop.must(["sync"])
        try await phone.must(["sync"])
        let copy = fixture.path("copy.bin")
        let fetched = try await phone.run(["attachment", "get", id, "tickets.bin", "--output", copy])
        #expect(fetched.status == 0, "the phone cannot get the file: \(fetched.err)")
        #expect(FileManager.default.contents(atPath: copy) == bytes, "the phone's copy is the laptop's file")
        await again.stop()
    }
}
