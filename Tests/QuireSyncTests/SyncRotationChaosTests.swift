import Foundation
import QuireCore
import QuireCrypto
import QuireProtocol
import QuireSync
import QuireTestSupport
import Testing

/// `quire encryption rotate` where it meets interruptions and other devices: the built `quire`
/// on several homes and a real server on a loopback port.
@Suite(.serialized) struct SyncRotationChaosTests {
    static let passphrase = "a passphrase for the chaos"

    /// The key ids the server's live items are sealed under.
    static func serverKeyIDs(_ server: SyncTestServer, _ token: String) async throws -> Set<UInt32> {
        let transport = HTTPSyncTransport(
            baseURL: server.baseURL, token: token, timeout: SyncTestServer.clientTimeout, now: { Date() })
        let items = try await transport.snapshot(after: nil, limit: SyncLimits.maxPageLimit).value.items
        let live = items.filter { !$0.deleted }
        return Set(live.flatMap { ($0.sealed ?? [:]).values.compactMap { FieldCipher.keyID(of: $0.text) } })
    }

    /// An account encrypted on the laptop, the phone unlocked, three items on both.
    static func account(_ server: SyncTestServer, _ token: String) async throws -> (laptop: String, phone: String) {
        let (laptop, phone) = (try QuireBinary.makeHome("rotation-chaos"), try QuireBinary.makeHome("rotation-chaos"))
        try await QuireBinary.must(["remote", "set", server.baseURL, "--token", token], home: laptop)
        for index in 0..<3 { try await QuireBinary.must(["add", "Item \(index)"], home: laptop) }
        try await QuireBinary.must(
            ["encryption", "enable", "--passphrase-stdin"], home: laptop, stdin: Self.passphrase)
        try await QuireBinary.must(["remote", "set", server.baseURL, "--token", token], home: phone)
        try await QuireBinary.must(["encryption", "unlock", "--passphrase-stdin"], home: phone, stdin: Self.passphrase)
        try await QuireBinary.must(["sync"], home: phone)
        return (laptop, phone)
    }

    /// A rotation stopped right after it stored the new ring, before the device that ran it kept
    /// the new key or re-sealed anything (killed there, or the server gone): `quire encryption
    /// enable`, as the rotation's message says, learns the key from the ring and re-seals every
    /// item under it; the other device reads everything; the next rotation makes key 3.
    @Test func anInterruptedRotationIsFinishedByEnableUnderTheNewKey() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let (laptop, phone) = try await Self.account(server, token)
        defer { for home in [laptop, phone] { try? FileManager.default.removeItem(atPath: home) } }
        let transport = HTTPSyncTransport(
            baseURL: server.baseURL, token: token, timeout: SyncTestServer.clientTimeout, now: { Date() })
        let document = try #require(try await transport.keyRing())
        let rotated = try document.keyring.rotated(unlocked: document.keyring.unlock(passphrase: Self.passphrase))
        _ = try await transport.storeKeyRing(KeyRingDocument(version: document.version, keyring: rotated.ring))
        #expect(try await Self.serverKeyIDs(server, token) == [1], "nothing re-sealed yet")
        // The phone's queued edit lands between the ring's write and the re-seal, sealed under
        // the key the phone held when it sent it.
        let listed = try await QuireBinary.must(["list", "--json"], home: phone)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        let edited = try #require(items.first { $0["title"] as? String == "Item 1" }?["id"] as? String)
        try await QuireBinary.must(["edit", edited, "--title", "Item 1 edited on the phone"], home: phone)
        try await QuireBinary.must(["sync"], home: phone)

        let finished = try await QuireBinary.must(["encryption", "enable"], home: laptop)
        #expect(finished.contains("under data key 2"), "\(finished)")
        #expect(try await Self.serverKeyIDs(server, token) == [2], "every item re-sealed under key 2")
        try await QuireBinary.must(["sync"], home: phone)
        try await QuireBinary.must(["sync"], home: laptop)
        let expected: Set = ["Item 0", "Item 1 edited on the phone", "Item 2"]
        for home in [laptop, phone] {
            #expect(try await SyncRestoreEncryptionTests().titles(on: home) == expected)
            let status = try await QuireBinary.must(["status", "--json"], home: home)
            #expect(!status.contains("UNREADABLE"), "\(status)")
        }
        let again = try await QuireBinary.must(
            ["encryption", "rotate", "--passphrase-stdin"], home: phone, stdin: Self.passphrase)
        #expect(again.contains("Data key 3 is now current"), "\(again)")
    }

    /// Two devices rotating at once: whichever stores its ring second is refused in words and
    /// changes nothing (or, when they do not overlap, both rotate in turn); no key is lost and
    /// both devices read everything after.
    @Test func twoDevicesRotatingAtOnceLoseNoKey() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let (laptop, phone) = try await Self.account(server, token)
        defer { for home in [laptop, phone] { try? FileManager.default.removeItem(atPath: home) } }
        async let first = QuireBinary.execute(
            ["encryption", "rotate", "--passphrase-stdin"], home: laptop, stdin: Self.passphrase)
        async let second = QuireBinary.execute(
            ["encryption", "rotate", "--passphrase-stdin"], home: phone, stdin: Self.passphrase)
        let runs = try await [first, second]
        let refused = runs.filter { $0.status != 0 }
        #expect(refused.count <= 1, "\(runs.map(\.stderr))")
        for run in refused {
            #expect(run.stderr.contains("another device changed the account's encryption meanwhile"), "\(run.stderr)")
        }
        let rotations = runs.count - refused.count
        for home in [laptop, phone, laptop] { try await QuireBinary.must(["sync"], home: home) }
        #expect(try await Self.serverKeyIDs(server, token) == [UInt32(1 + rotations)])
        for home in [laptop, phone] {
            #expect(try await SyncRestoreEncryptionTests().titles(on: home) == ["Item 0", "Item 1", "Item 2"])
            let keys = try await QuireBinary.must(["encryption", "status", "--json"], home: home)
            let current = try JSONSerialization.jsonObject(with: Data(keys.utf8)) as? [String: Any]
            #expect(current?["currentKey"] as? Int == 1 + rotations, "\(keys)")
        }
    }
}
