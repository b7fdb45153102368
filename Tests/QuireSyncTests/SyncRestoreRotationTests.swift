import Foundation
import QuireServer
import QuireTestSupport
import Testing

/// A server restored from a backup made before a data key rotation: its key ring holds only
/// key 1 again, while the devices that lived through the rotation hold key 2 and the server
/// lost what was written under it. The built `quire` on several homes and a real server on a
/// loopback port.
@Suite(.serialized) struct SyncRestoreRotationTests {
    static let passphrase = "a passphrase for the rotation"

    func titles(on home: String) async throws -> Set<String> {
        try await SyncRestoreEncryptionTests().titles(on: home)
    }

    func json(_ arguments: [String], on home: String) async throws -> Any {
        try JSONSerialization.jsonObject(with: Data(try await QuireBinary.must(arguments, home: home).utf8))
    }

    /// A device that reads the account from nothing but the passphrase.
    func unlockedHome(_ server: SyncTestServer, _ token: String) async throws -> String {
        let home = try QuireBinary.makeHome("restore-rotation")
        try await QuireBinary.must(["remote", "set", server.baseURL, "--token", token], home: home)
        try await QuireBinary.must(["encryption", "unlock", "--passphrase-stdin"], home: home, stdin: Self.passphrase)
        return home
    }

    /// Every device reads the same items, holds the same current key, and has nothing set aside,
    /// nothing for review and no item it could not open.
    func expectConverged(_ homes: [String], on expected: Set<String>, currentKey: Int) async throws {
        for home in homes {
            #expect(try await titles(on: home) == expected, "\(home)")
            let keys = try #require(try await json(["encryption", "status", "--json"], on: home) as? [String: Any])
            #expect(keys["currentKey"] as? Int == currentKey, "\(home): \(keys)")
            #expect((try await json(["conflicts", "--json"], on: home) as? [Any])?.isEmpty == true, "\(home)")
            let status = try #require(try await json(["status", "--json"], on: home) as? [String: Any])
            let kinds = (status["events"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            #expect(!kinds.contains("UNREADABLE"), "\(home): \(status)")
            #expect((status["unreadable"] as? [Any] ?? []).isEmpty, "\(home): \(status)")
            #expect(status["outbox"] as? Int == 0 && status["deadLetters"] as? Int == 0, "\(home): \(status)")
        }
    }

    /// The devices holding key 2 put it back into the restored ring instead of going back to
    /// key 1: what the restore lost comes back, a device that never learned key 2 learns it, a
    /// new device unlocks and reads everything, and the next rotation makes key 3, not a second
    /// key 2 that the devices holding the first could not tell from it.
    @Test func aRestoreFromBeforeARotationKeepsTheRotatedKeyAndLosesNothing() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let (laptop, phone, tablet) = (
            try QuireBinary.makeHome("restore-rotation"), try QuireBinary.makeHome("restore-rotation"),
            try QuireBinary.makeHome("restore-rotation")
        )
        var homes = [laptop, phone, tablet]
        defer { for home in homes { try? FileManager.default.removeItem(atPath: home) } }
        try await QuireBinary.must(["remote", "set", server.baseURL, "--token", token], home: laptop)
        let first = try await QuireBinary.must(["add", "Written before the rotation"], home: laptop)
        try await QuireBinary.must(
            ["encryption", "enable", "--passphrase-stdin"], home: laptop, stdin: Self.passphrase)
        for home in [phone, tablet] {
            try await QuireBinary.must(["remote", "set", server.baseURL, "--token", token], home: home)
            try await QuireBinary.must(
                ["encryption", "unlock", "--passphrase-stdin"], home: home, stdin: Self.passphrase)
            try await QuireBinary.must(["sync"], home: home)
        }
        await server.stop()
        try server.backUp(to: "before-rotation.db")
        try await server.start()

        // The tablet stays away while the laptop rotates and both others write under key 2.
        let rotated = try await QuireBinary.must(
            ["encryption", "rotate", "--passphrase-stdin"], home: laptop, stdin: Self.passphrase)
        #expect(rotated.contains("Data key 2 is now current"), "\(rotated)")
        try await QuireBinary.must(["add", "Written under key 2"], home: laptop)
        try await QuireBinary.must(["sync"], home: laptop)
        try await QuireBinary.must(["sync"], home: phone)
        try await QuireBinary.must(["edit", first, "--title", "Edited on the phone under key 2"], home: phone)
        try await QuireBinary.must(["sync"], home: phone)

        await server.stop()
        try server.restore(from: "before-rotation.db")
        _ = try await server.admin { try await $0.renewEpoch() }
        try await server.start()

        for _ in 0..<2 {
            for home in [laptop, phone, tablet] { try await QuireBinary.must(["sync"], home: home) }
        }
        let expected: Set = ["Edited on the phone under key 2", "Written under key 2"]
        try await expectConverged([laptop, phone, tablet], on: expected, currentKey: 2)
        let newcomer = try await unlockedHome(server, token)
        homes.append(newcomer)
        try await QuireBinary.must(["sync"], home: newcomer)
        try await expectConverged([newcomer], on: expected, currentKey: 2)

        let again = try await QuireBinary.must(
            ["encryption", "rotate", "--passphrase-stdin"], home: laptop, stdin: Self.passphrase)
        #expect(again.contains("Data key 3 is now current"), "\(again)")
        for home in [phone, tablet, newcomer, laptop] { try await QuireBinary.must(["sync"], home: home) }
        try await expectConverged([laptop, phone, tablet, newcomer], on: expected, currentKey: 3)
    }
}
