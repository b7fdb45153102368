import Crypto
import Foundation
import GRDB
import QuireTestSupport
import Testing

/// Issue 32's encrypted attachments from the outside: the built `quire` on devices of an
/// encrypted account and of a plain one, the built `quire-server` with an SQLite file, and the
/// bytes the server leaves on disk.
@Suite(.serialized) struct EncryptedAttachmentEndToEndTests {
    typealias Device = BackupTests.Device
    typealias Encryption = EncryptionEndToEndTests

    /// A file of about 2.5 MiB (three chunks) whose lines all hold `word`.
    static func write(_ word: String, to path: String) throws -> Data {
        var text = ""
        var line = 0
        while text.utf8.count < (5 << 19) {
            text += "line \(line) of the tickets: \(word)\n"
            line += 1
        }
        let data = Data(text.utf8)
        try data.write(to: URL(fileURLWithPath: path))
        return data
    }

    static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// The one attachment of item `id` on `device`, as `quire attachments --json` gives it.
    static func attachment(_ id: String, on device: Device) async throws -> [String: Any] {
        let text = try await device.must(["attachments", id, "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        return try #require(list.first, "\(text)")
    }

    /// Whether any file under `folder` holds `word`.
    static func anyFile(under folder: String, contains word: String) -> Bool {
        let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        return files.contains { Encryption.file(folder + "/" + $0, contains: word) }
    }

    @Test func aSealedFileReachesAnotherDeviceByteForByteWhileItsBytesAreNowhereOnTheServer() async throws {
        let scene = try await EncryptedAccountScene.start(word: "file")
        defer { scene.finish() }
        let (laptop, phone, plain, canary, control) = (
            scene.laptop, scene.phone, scene.plain, scene.canary, scene.control
        )
        let (db, server, ann, bob, enabled) = (scene.fixture.db, scene.server, scene.ann, scene.bob, scene.enabled)
        let backup = scene.fixture.path("backup.db")
        #expect(enabled.status == 0, "\(enabled.err)")
        let original = try Self.write(canary, to: laptop.home + "/tickets.txt")
        let trip = try await laptop.must(["add", "Trip"])
        let visa = try await laptop.must(["add", "Visa"])
        try await laptop.must(["attach", trip, laptop.home + "/tickets.txt"])
        try await laptop.must(["attach", visa, laptop.home + "/tickets.txt"])
        try await laptop.must(["sync"])
        #expect(try await Self.attachment(trip, on: laptop)["state"] as? String == "here")

        // Attached twice, stored once: three chunks, one manifest.
        let queue = try DatabaseQueue(path: db)
        let counts = try await queue.read { db in
            (
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM chunks JOIN users ON users.id = user_id WHERE name = 'ann'"),
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM files JOIN users ON users.id = user_id WHERE name = 'ann'")
            )
        }
        try queue.close()
        #expect(counts.0 == 3 && counts.1 == 1, "\(counts)")

        // Another device of the account, unlocked, downloads it byte for byte.
        try await phone.must(["remote", "set", server.baseURL, "--token", ann])
        let unlocked = try await Encryption.run(
            phone, ["encryption", "unlock", "--passphrase-stdin"], stdin: Encryption.passphrase)
        #expect(unlocked.status == 0, "\(unlocked.err)")
        try await phone.must(["sync"])
        #expect(try await Self.attachment(visa, on: phone)["state"] as? String == "here")
        let saved = phone.home + "/saved.txt"
        try await phone.must(["attachment", "get", trip, "tickets.txt", "--output", saved])
        let received = try #require(FileManager.default.contents(atPath: saved))
        #expect(received == original)
        #expect(Self.sha256(received) == Self.sha256(original))

        // A plain account's file on the same server, as the control: its word is found on disk.
        try await plain.must(["remote", "set", server.baseURL, "--token", bob])
        _ = try Self.write(control, to: plain.home + "/plain.txt")
        let note = try await plain.must(["add", "Plain"])
        try await plain.must(["attach", note, plain.home + "/plain.txt"])
        try await plain.must(["sync"])

        _ = try await BackupTests.server(["backup", "--db", db, "--output", backup])
        let files = Encryption.serverFiles(db: db, backup: backup, log: server.logURL)
        #expect(files.contains { Encryption.file($0, contains: control) }, "the scan finds a plain account's file")
        for path in files {
            #expect(!Encryption.file(path, contains: canary), "\(path) holds the encrypted account's file")
        }
    }

    @Test func turningEncryptionOnDropsThePlainCopyAndTheFileTravelsAgainSealed() async throws {
        let fixture = try await LiveFixture.start(["--rate-limit", "0"])
        defer { Task { await fixture.finish() } }
        let (db, server, ann) = (fixture.db, fixture.server, fixture.token)
        let (before, after) = (fixture.path("before.db"), fixture.path("after.db"))

        let laptop = try Device()
        let phone = try Device()
        defer { for device in [laptop, phone] { device.remove() } }
        let canary = "zqlatecanary" + UUID().uuidString.prefix(8).lowercased()
        try await laptop.must(["remote", "set", server.baseURL, "--token", ann])
        let original = try Self.write(canary, to: laptop.home + "/tickets.txt")
        let trip = try await laptop.must(["add", "Trip"])
        try await laptop.must(["attach", trip, laptop.home + "/tickets.txt"])
        try await laptop.must(["sync"])
        _ = try await BackupTests.server(["backup", "--db", db, "--output", before])
        #expect(Encryption.file(before, contains: canary), "the plain upload is readable: the scan can fail")

        let enabled = try await Encryption.run(
            laptop, ["encryption", "enable", "--passphrase-stdin"], stdin: Encryption.passphrase)
        #expect(enabled.status == 0, "\(enabled.err)")
        try await laptop.must(["sync"])
        #expect(try await Self.attachment(trip, on: laptop)["state"] as? String == "here")

        try await phone.must(["remote", "set", server.baseURL, "--token", ann])
        let unlocked = try await Encryption.run(
            phone, ["encryption", "unlock", "--passphrase-stdin"], stdin: Encryption.passphrase)
        #expect(unlocked.status == 0, "\(unlocked.err)")
        try await phone.must(["sync"])
        let saved = phone.home + "/saved.txt"
        try await phone.must(["attachment", "get", trip, "tickets.txt", "--output", saved])
        #expect(FileManager.default.contents(atPath: saved) == original)

        _ = try await BackupTests.server(["backup", "--db", db, "--output", after])
        #expect(!Encryption.file(after, contains: canary), "the plain copy is gone from the server")
        let queue = try DatabaseQueue(path: after)
        defer { try? queue.close() }
        #expect(try await queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM chunks") } == 3)
    }

    @Test func aFileTheServerAlteredReorderedSwappedOrCutShortIsMarkedAndNothingOfItIsKept() async throws {
        let fixture = try await LiveFixture.start(["--rate-limit", "0"])
        defer { Task { await fixture.finish() } }
        let (db, server, ann) = (fixture.db, fixture.server, fixture.token)

        let laptop = try Device()
        let phone = try Device()
        defer { for device in [laptop, phone] { device.remove() } }
        let canary = "zqtampercanary" + UUID().uuidString.prefix(8).lowercased()
        try await laptop.must(["remote", "set", server.baseURL, "--token", ann])
        let enabled = try await Encryption.run(
            laptop, ["encryption", "enable", "--passphrase-stdin"], stdin: Encryption.passphrase)
        #expect(enabled.status == 0, "\(enabled.err)")
        let original = try Self.write(canary, to: laptop.home + "/tickets.txt")
        _ = try Self.write("another file", to: laptop.home + "/other.txt")
        let trip = try await laptop.must(["add", "Trip"])
        try await laptop.must(["attach", trip, laptop.home + "/tickets.txt"])
        try await laptop.must(["sync"])
        // The tickets' manifest as stored, then another file of the account's.
        let queue = try DatabaseQueue(path: db)
        defer { try? queue.close() }
        func manifests() throws -> [String: [String]] {
            try queue.read { db in
                try Dictionary(
                    uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT hash, chunks FROM files").map { row in
                        (
                            row["hash"] as String,
                            try JSONDecoder().decode([String].self, from: Data((row["chunks"] as String).utf8))
                        )
                    })
            }
        }
        let (ticketsAddress, chunks) = try #require(try manifests().first)
        try #require(chunks.count == 3)
        let other = try await laptop.must(["add", "Other"])
        try await laptop.must(["attach", other, laptop.home + "/other.txt"])
        try await laptop.must(["sync"])
        let otherChunks = try #require(try manifests().first { $0.key != ticketsAddress }?.value)
        let user = try #require(
            try await queue.read { try Int64.fetchOne($0, sql: "SELECT id FROM users WHERE name = 'ann'") })

        func setManifest(_ chunks: [String]) throws {
            try queue.write { db in
                let text = String(decoding: try JSONEncoder().encode(chunks), as: UTF8.self)
                try db.execute(
                    sql: "UPDATE files SET chunks = ? WHERE user_id = ? AND hash = ?",
                    arguments: [text, user, ticketsAddress])
            }
        }
        func flipChunk(_ address: String) throws {
            try queue.write { db in
                var bytes = try #require(
                    try Data.fetchOne(
                        db, sql: "SELECT bytes FROM chunks WHERE user_id = ? AND hash = ?", arguments: [user, address]))
                bytes[100] ^= 0x01
                try db.execute(
                    sql: "UPDATE chunks SET bytes = ? WHERE user_id = ? AND hash = ?",
                    arguments: [bytes, user, address])
            }
        }

        try await phone.must(["remote", "set", server.baseURL, "--token", ann])
        let unlocked = try await Encryption.run(
            phone, ["encryption", "unlock", "--passphrase-stdin"], stdin: Encryption.passphrase)
        #expect(unlocked.status == 0, "\(unlocked.err)")

        // Reordered, before the phone's first sync: its download marks the file with the reason.
        try setManifest([chunks[1], chunks[0], chunks[2]])
        try await phone.must(["sync"])
        let marked = try await Self.attachment(trip, on: phone)
        #expect(marked["state"] as? String == "refused", "\(marked)")
        #expect((marked["reason"] as? String)?.contains("chunk 1 was altered, reordered") == true, "\(marked)")
        #expect(!Self.anyFile(under: phone.home, contains: canary), "nothing of the file was kept")

        // Each other way, through 'attachment get', which tries again and says why it fails.
        let cases: [(String, () throws -> Void, String)] = [
            ("cut short", { try setManifest(Array(chunks.prefix(2))) }, "lists 2 chunks where the file has 3"),
            ("cut after a chunk", { try setManifest(Array(chunks.prefix(2)) + [chunks[1]]) }, "chunk 3 was altered"),
            ("swapped", { try setManifest([chunks[0], otherChunks[1], chunks[2]]) }, "chunk 2 was altered"),
            ("flipped", { try flipChunk(chunks[2]) }, "chunk 3 was altered"),
        ]
        let saved = phone.home + "/saved.txt"
        for (name, tamper, reason) in cases {
            try setManifest(chunks)
            try tamper()
            let got = try await phone.run(["attachment", "get", trip, "tickets.txt", "--output", saved])
            #expect(got.status != 0, "\(name): \(got)")
            #expect(
                got.err.contains("cannot download tickets.txt: ") && got.err.contains(reason), "\(name): \(got.err)")
            #expect(!FileManager.default.fileExists(atPath: saved), "\(name)")
            #expect(!Self.anyFile(under: phone.home, contains: canary), "\(name): nothing of the file was kept")
            if name == "flipped" { try flipChunk(chunks[2]) }
        }

        // Put right, the file comes down whole.
        try setManifest(chunks)
        try await phone.must(["attachment", "get", trip, "tickets.txt", "--output", saved])
        #expect(FileManager.default.contents(atPath: saved) == original)
        #expect(try await Self.attachment(trip, on: phone)["state"] as? String == "here")
    }
}
