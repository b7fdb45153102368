import Foundation
import QuireProtocol
import QuireTestSupport
import Testing

/// SPEC "End-to-end encryption" from the outside: the built `quire` on two devices, the built
/// `quire-server` on a loopback port with an SQLite file, and the bytes the server leaves on disk.
@Suite(.serialized) struct EncryptionEndToEndTests {
    typealias Device = BackupTests.Device

    static let passphrase = "correct horse battery staple"

    /// Runs `quire` on `device` with `stdin`.
    static func run(_ device: Device, _ arguments: [String], stdin: String) async throws -> (
        status: Int32, out: String, err: String
    ) {
        let environment = ["QUIRE_HOME": device.home, "HOME": device.home, "PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
        let output = try await BackupTests.detached {
            try ChildRun.run(
                try ServerProcess.client.path, arguments, environment: environment, stdin: stdin)
        }
        return (output.status, output.stdout, output.stderr)
    }

    /// Whether `word` is anywhere in the file at `path` (a missing file holds nothing).
    static func file(_ path: String, contains word: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        return data.range(of: Data(word.utf8)) != nil
    }

    /// Every file of the server's: its database, WAL, a backup copy and its log.
    static func serverFiles(db: String, backup: String, log: URL) -> [String] {
        [db, db + "-wal", db + "-shm", backup, log.path]
    }

    @Test func aWordSyncedWithEncryptionOnIsNowhereOnTheServerWhileAPlainAccountsIs() async throws {
        let scene = try await EncryptedAccountScene.start(word: "")
        defer { scene.finish() }
        let (laptop, phone, plain, canary, control) = (
            scene.laptop, scene.phone, scene.plain, scene.canary, scene.control
        )
        let (db, server, ann, bob, enabled) = (scene.fixture.db, scene.server, scene.ann, scene.bob, scene.enabled)
        let backup = scene.fixture.path("backup.db")
        #expect(enabled.status == 0, "\(enabled.err)")
        let recovery = try #require(
            enabled.out.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.split(separator: "-").count == 8 },
            "the recovery key is printed once: \(enabled.out)")
        let id = try await laptop.must([
            "add", "Buy \(canary) seeds", "--tag", "\(canary)tag", "--body", "\(canary) body",
        ])
        try await laptop.must(["sync"])

        // A second device is told to unlock, refuses a wrong passphrase, then reads everything.
        try await phone.must(["remote", "set", server.baseURL, "--token", ann])
        let locked = try await phone.run(["sync"])
        #expect(locked.status == 4 && locked.err.contains("quire encryption unlock"), "\(locked)")
        let paused = try await phone.must(["status"])
        #expect(
            paused.contains("sync paused · encrypted: quire encryption unlock"), "the truth, not 'sign in': \(paused)")
        let wrong = try await Self.run(phone, ["encryption", "unlock", "--passphrase-stdin"], stdin: "not it at all")
        #expect(wrong.status == 4 && wrong.err.contains("wrong passphrase"), "\(wrong)")
        let unlocked = try await Self.run(
            phone, ["encryption", "unlock", "--passphrase-stdin"], stdin: Self.passphrase)
        #expect(unlocked.status == 0, "\(unlocked.err)")
        try await phone.must(["sync"])
        let shown = try await phone.must(["show", id, "--json"])
        #expect(shown.contains("Buy \(canary) seeds") && shown.contains("\(canary)tag"))

        // An edit on the phone reaches the laptop, sealed both ways.
        try await phone.must(["edit", id, "--title", "Buy \(canary) bulbs"])
        try await phone.must(["sync"])
        try await laptop.must(["sync"])
        #expect(try await laptop.must(["show", id, "--json"]).contains("Buy \(canary) bulbs"))

        // The recovery key unlocks a third device of the same account.
        let spare = try Device()
        defer { spare.remove() }
        try await spare.must(["remote", "set", server.baseURL, "--token", ann])
        let recovered = try await Self.run(spare, ["encryption", "unlock", "--recovery-key-stdin"], stdin: recovery)
        #expect(recovered.status == 0, "\(recovered.err)")
        try await spare.must(["sync"])
        #expect(try await spare.must(["show", id, "--json"]).contains("bulbs"))

        // A plain account on the same server, as the control: its word is found on disk.
        try await plain.must(["remote", "set", server.baseURL, "--token", bob])
        try await plain.must(["add", "Buy \(control) seeds"])
        try await plain.must(["sync"])

        _ = try await BackupTests.server(["backup", "--db", db, "--output", backup])
        let files = Self.serverFiles(db: db, backup: backup, log: server.logURL)
        #expect(files.contains { Self.file($0, contains: control) }, "the scan finds a plain account's word")
        for path in files {
            #expect(!Self.file(path, contains: canary), "\(path) holds the encrypted account's word")
        }
        let listed = try await laptop.must(["list", "--json"])
        #expect(listed.contains(canary), "the devices keep it in plain text")
    }

    @Test func enablingOnAnAccountWithItemsSealsThemAllAndDropsTombstoneContent() async throws {
        let fixture = try await LiveFixture.start(["--rate-limit", "0"])
        defer { Task { await fixture.finish() } }
        let (db, server, ann) = (fixture.db, fixture.server, fixture.token)

        let laptop = try Device()
        let phone = try Device()
        defer { for device in [laptop, phone] { device.remove() } }
        try await laptop.must(["remote", "set", server.baseURL, "--token", ann])
        var ids: [String] = []
        for index in 0..<3 { ids.append(try await laptop.must(["add", "Plain canary \(index)"])) }
        let gone = try await laptop.must(["add", "Deleted canary"])
        try await laptop.must(["sync"])
        try await laptop.must(["rm", gone])
        try await laptop.must(["sync"])
        // A change queued on the phone before the switch is not lost by it.
        try await phone.must(["remote", "set", server.baseURL, "--token", ann])
        try await phone.must(["sync"])
        try await phone.must(["edit", ids[0], "--title", "Edited offline canary"])

        let enabled = try await Self.run(
            laptop, ["encryption", "enable", "--passphrase-stdin"], stdin: Self.passphrase)
        #expect(enabled.status == 0, "\(enabled.err)")
        #expect(enabled.out.contains("Sealed 3 items"), "\(enabled.out)")

        let (status, body) = try await LiveClient.plain.send(server.baseURL + SyncProtocol.snapshotPath, token: ann)
        #expect(status == 200)
        let page = try JSONDecoder().decode(SnapshotPage.self, from: Data(body))
        #expect(page.keyring == 1)
        #expect(page.items.filter { !$0.deleted }.allSatisfy { $0.sealed != nil }, "every live item is sealed")
        #expect(!String(decoding: body, as: UTF8.self).contains("canary"), "no title left readable")

        // The phone's queued edit waits for the unlock, then lands sealed.
        let locked = try await phone.run(["sync"])
        #expect(locked.status == 4, "\(locked)")
        let unlocked = try await Self.run(
            phone, ["encryption", "unlock", "--passphrase-stdin"], stdin: Self.passphrase)
        #expect(unlocked.status == 0, "\(unlocked.err)")
        try await phone.must(["sync"])
        try await laptop.must(["sync"])
        #expect(try await laptop.must(["show", ids[0], "--json"]).contains("Edited offline canary"))
        let conflicts = try await laptop.must(["conflicts", "--json"])
        let records = try JSONSerialization.jsonObject(with: Data(conflicts.utf8)) as? [Any]
        #expect(records?.isEmpty == true, "no item needs review: \(conflicts)")
        let (_, after) = try await LiveClient.plain.send(server.baseURL + SyncProtocol.snapshotPath, token: ann)
        #expect(!String(decoding: after, as: UTF8.self).contains("canary"))
        // Nor do the server's files keep the plain versions it replaced: freed space is zeroed
        // and the WAL's old frames are gone (SPEC: the server purges what it held in plain text).
        for path in [db, db + "-wal", db + "-shm"] {
            #expect(!Self.file(path, contains: "canary"), "\(path) still holds a plain version")
        }

        // Enabling again says so and changes nothing.
        let again = try await Self.run(phone, ["encryption", "enable", "--passphrase-stdin"], stdin: Self.passphrase)
        #expect(again.status == 0 && again.out.contains("Sealed 0 items"), "\(again)")

        // A new passphrase: the old one no longer unlocks, the new one does, and the devices
        // already unlocked sync on with the keys they hold.
        let newPassphrase = "a new passphrase for the ring"
        let changed = try await Self.run(
            phone, ["encryption", "change-passphrase", "--passphrase-stdin"],
            stdin: "\(Self.passphrase)\n\(newPassphrase)\n")
        #expect(changed.status == 0, "\(changed.err)")
        let third = try Device()
        defer { third.remove() }
        try await third.must(["remote", "set", server.baseURL, "--token", ann])
        let old = try await Self.run(third, ["encryption", "unlock", "--passphrase-stdin"], stdin: Self.passphrase)
        #expect(old.status == 4, "\(old)")
        let new = try await Self.run(third, ["encryption", "unlock", "--passphrase-stdin"], stdin: newPassphrase)
        #expect(new.status == 0, "\(new.err)")
        try await third.must(["sync"])
        #expect(try await third.must(["show", ids[0], "--json"]).contains("Edited offline canary"))
        try await laptop.must(["edit", ids[1], "--title", "After the change"])
        try await laptop.must(["sync"])
        try await third.must(["sync"])
        #expect(try await third.must(["show", ids[1], "--json"]).contains("After the change"))
    }
}
