import Foundation
import GRDB
import QuireCore
import QuireProtocol
import QuireTestSupport
import Testing

/// A device away during `quire encryption rotate` writes while away, then syncs: what it wrote
/// must land under the new data key, never the one a lost device may hold. The built `quire`
/// on two devices, the built `quire-server` with an SQLite file, read as it stores the items.
@Suite(.serialized) struct KeyRotationOfflineDeviceTests {
    typealias Rotation = KeyRotationEndToEndTests

    /// The key ids of every value and MAC of the account's live items, as the server's database
    /// holds them, by item id.
    static func storedKeyIDs(_ scene: EncryptedAccountScene) async throws -> [String: Set<String>] {
        let queue = try DatabaseQueue(path: scene.fixture.db)
        defer { try? queue.close() }
        let docs = try await queue.read { db in
            try String.fetchAll(
                db,
                sql: "SELECT doc FROM items JOIN users ON users.id = user_id WHERE name = 'ann' AND deleted = 0")
        }
        var keyIDs: [String: Set<String>] = [:]
        for doc in docs {
            let item = try JSONDecoder().decode(ChangeItem.self, from: Data(doc.utf8))
            keyIDs[item.id] = Rotation.keyIDs(of: [item])
        }
        return keyIDs
    }

    @Test func whatADeviceWroteWhileAwayDuringARotationLandsUnderTheNewKey() async throws {
        let scene = try await EncryptedAccountScene.start(word: "away")
        defer { scene.finish() }
        let (laptop, phone) = (scene.laptop, scene.phone)
        #expect(scene.enabled.status == 0, "\(scene.enabled.err)")
        let kept = try await laptop.must(["add", "Kept as it was", "--body", "untouched"])
        let retitled = try await laptop.must(["add", "Titled before the rotation"])
        let rewritten = try await laptop.must(["add", "Body rewritten", "--body", "first body"])
        try await laptop.must(["sync"])
        try await phone.must(["remote", "set", scene.server.baseURL, "--token", scene.ann])
        let unlocked = try await EncryptionEndToEndTests.run(
            phone, ["encryption", "unlock", "--passphrase-stdin"], stdin: Rotation.passphrase)
        #expect(unlocked.status == 0, "\(unlocked.err)")
        try await phone.must(["sync"])

        // The phone is away while the laptop rotates, and writes on: a new item edited twice,
        // an old item's title, another's body.
        let rotated = try await EncryptionEndToEndTests.run(
            laptop, ["encryption", "rotate", "--passphrase-stdin"], stdin: Rotation.passphrase)
        #expect(rotated.status == 0 && rotated.out.contains("Data key 2 is now current"), "\(rotated)")
        let created = try await phone.must(["add", "Written on the phone while away", "--body", "draft"])
        try await phone.must(["edit", created, "--body", "draft, then finished"])
        try await phone.must(["edit", retitled, "--title", "Retitled on the phone while away"])
        try await phone.must(["edit", rewritten, "--body", "second body, from the phone"])
        try await phone.must(["sync"])

        let stored = try await Self.storedKeyIDs(scene)
        #expect(Set(stored.keys) == [kept, retitled, rewritten, created])
        for (id, keys) in stored {
            #expect(keys == ["2"], "item \(id) has values under keys \(keys.sorted()) on the server")
        }

        try await laptop.must(["sync"])
        let expected = [
            kept: ["Kept as it was", "untouched"], retitled: ["Retitled on the phone while away"],
            rewritten: ["Body rewritten", "second body, from the phone"],
            created: ["Written on the phone while away", "draft, then finished"],
        ]
        for device in [laptop, phone] {
            for (id, texts) in expected {
                let shown = try await device.must(["show", id, "--json"])
                for text in texts { #expect(shown.contains(text), "\(id) on \(device.home): \(shown)") }
            }
            #expect((try await Rotation.json(device, ["conflicts", "--json"]) as? [Any])?.isEmpty == true)
            let status = try #require(try await Rotation.json(device, ["status", "--json"]) as? [String: Any])
            let kinds = (status["events"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            #expect(!kinds.contains("RESYNC") && !kinds.contains("UNREADABLE"), "\(kinds)")
            #expect(status["outbox"] as? Int == 0 && status["deadLetters"] as? Int == 0, "\(status)")
        }
    }
}
