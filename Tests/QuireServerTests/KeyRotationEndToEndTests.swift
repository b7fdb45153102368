import Foundation
import QuireCore
import QuireProtocol
import QuireTestSupport
import Testing

/// `quire encryption rotate` from the outside: the built `quire` on devices of one encrypted
/// account, the built `quire-server` on a loopback port with an SQLite file.
@Suite(.serialized) struct KeyRotationEndToEndTests {
    typealias Device = BackupTests.Device

    static let passphrase = EncryptionEndToEndTests.passphrase

    /// The account's live items as the server holds them.
    static func serverItems(_ scene: EncryptedAccountScene) async throws -> [ChangeItem] {
        let url = scene.server.baseURL + SyncProtocol.snapshotPath + "?limit=5000"
        let (status, body) = try await LiveClient.plain.send(url, token: scene.ann)
        try #require(status == 200)
        return try JSONDecoder().decode(SnapshotPage.self, from: Data(body)).items.filter { !$0.deleted }
    }

    /// The key ids the server's copies are sealed under, values and MACs alike.
    static func keyIDs(of items: [ChangeItem]) -> Set<String> {
        Set(
            items.flatMap { item in
                (item.sealed ?? [:]).values.flatMap { [$0.text, $0.mac].map { String($0.split(separator: ".")[1]) } }
            })
    }

    /// The account's key ring as the server stores it, byte for byte.
    static func storedRing(_ scene: EncryptedAccountScene) async throws -> [UInt8] {
        let (status, body) = try await LiveClient.plain.send(
            scene.server.baseURL + SyncProtocol.keyringPath, token: scene.ann)
        try #require(status == 200)
        return body
    }

    /// What `quire ARGUMENTS` printed, parsed as JSON.
    static func json(_ device: Device, _ arguments: [String]) async throws -> Any {
        try JSONSerialization.jsonObject(with: Data(try await device.must(arguments).utf8))
    }

    @Test func aDeviceWithAQueuedEditLearnsTheRotatedKeyWithoutThePassphraseAndLosesNothing() async throws {
        let scene = try await EncryptedAccountScene.start(word: "rotate")
        defer { scene.finish() }
        let (laptop, phone, server, ann) = (scene.laptop, scene.phone, scene.server, scene.ann)
        #expect(scene.enabled.status == 0, "\(scene.enabled.err)")
        var ids: [String] = []
        for index in 0..<3 {
            ids.append(try await laptop.must(["add", "Rotating item \(index)", "--body", "body \(index)"]))
        }
        try await laptop.must(["sync"])
        try await phone.must(["remote", "set", server.baseURL, "--token", ann])
        let unlocked = try await EncryptionEndToEndTests.run(
            phone, ["encryption", "unlock", "--passphrase-stdin"], stdin: Self.passphrase)
        #expect(unlocked.status == 0, "\(unlocked.err)")
        try await phone.must(["sync"])
        // Queued on the phone, not sent, while the laptop rotates.
        try await phone.must(["edit", ids[0], "--title", "Edited on the phone before the rotation"])
        #expect(Self.keyIDs(of: try await Self.serverItems(scene)) == ["1"])

        // A wrong passphrase: exit 4, and the server's ring and items are as they were.
        let ringBefore = try await Self.storedRing(scene)
        let itemsBefore = try await Self.serverItems(scene)
        let wrong = try await EncryptionEndToEndTests.run(
            laptop, ["encryption", "rotate", "--passphrase-stdin"], stdin: "not the passphrase at all")
        #expect(wrong.status == 4 && wrong.err.contains("wrong passphrase"), "\(wrong)")
        #expect(try await Self.storedRing(scene) == ringBefore, "the ring is unchanged")
        #expect(try await Self.serverItems(scene) == itemsBefore, "no item was written")

        let rotated = try await EncryptionEndToEndTests.run(
            laptop, ["encryption", "rotate", "--passphrase-stdin"], stdin: Self.passphrase)
        #expect(rotated.status == 0, "\(rotated.err)")
        #expect(rotated.out.contains("Data key 2 is now current"), "\(rotated.out)")
        #expect(rotated.out.contains("Sealed 3 items on the server under data key 2"), "\(rotated.out)")
        #expect(rotated.out.contains("revoke a lost device's token"), "\(rotated.out)")
        #expect(Self.keyIDs(of: try await Self.serverItems(scene)) == ["2"], "every item re-sealed under key 2")

        // The phone learns key 2 at its sync, with no passphrase, and its queued edit lands.
        try await phone.must(["sync"])
        let keys = try #require(try await Self.json(phone, ["encryption", "status", "--json"]) as? [String: Any])
        #expect(keys["currentKey"] as? Int == 2 && keys["keyIDs"] as? [Int] == [1, 2], "\(keys)")
        try await laptop.must(["sync"])
        for device in [laptop, phone] {
            #expect(
                try await device.must(["show", ids[0], "--json"]).contains("Edited on the phone before the rotation"))
            for index in 1..<3 {
                #expect(try await device.must(["show", ids[index], "--json"]).contains("Rotating item \(index)"))
            }
            #expect((try await Self.json(device, ["conflicts", "--json"]) as? [Any])?.isEmpty == true)
            let status = try #require(try await Self.json(device, ["status", "--json"]) as? [String: Any])
            let kinds = (status["events"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            // A round whose state hash differs from the server's ends in a RESYNC.
            #expect(!kinds.contains("RESYNC") && !kinds.contains("UNREADABLE"), "state hashes equal: \(kinds)")
            #expect(status["outbox"] as? Int == 0 && status["deadLetters"] as? Int == 0, "\(status)")
        }
        // What the phone writes from now on is sealed under key 2 too.
        try await phone.must(["add", "Written after the rotation"])
        try await phone.must(["sync"])
        let after = try await Self.serverItems(scene)
        #expect(after.count == 4)
        #expect(Self.keyIDs(of: after) == ["2"], "every item on the server is under key 2")

        // A device that never held a key still has to unlock: rotation taught it nothing.
        let spare = try Device()
        defer { spare.remove() }
        try await spare.must(["remote", "set", server.baseURL, "--token", ann])
        let locked = try await spare.run(["sync"])
        #expect(locked.status == 4 && locked.err.contains("quire encryption unlock"), "\(locked)")
        let rotateLocked = try await EncryptionEndToEndTests.run(
            spare, ["encryption", "rotate", "--passphrase-stdin"], stdin: "a guess at the passphrase")
        #expect(rotateLocked.status == 4 && rotateLocked.err.contains("wrong passphrase"), "\(rotateLocked)")
        #expect(try await Self.storedRing(scene) != ringBefore)
        let unlockedSpare = try await EncryptionEndToEndTests.run(
            spare, ["encryption", "unlock", "--passphrase-stdin"], stdin: Self.passphrase)
        #expect(unlockedSpare.status == 0, "\(unlockedSpare.err)")
        try await spare.must(["sync"])
        #expect(try await spare.itemIDs().count == 4)
    }
}
