import Foundation
import QuireCore
import QuireProtocol
import QuireStore
import Testing

@testable import QuireCrypto
@testable import QuireSync

/// SPEC "End-to-end encryption": an item sealed under a key this device lacks is marked
/// unreadable while the others sync on, and once the device holds that key (an unlock, a key
/// learned from the key ring) the next sync reads those items again and opens them. Without
/// that, the device's cursor is past them and its state hash equals the server's, so they
/// would stay marked until someone wrote them again. The built `quire` on two devices and a
/// real server on a loopback port.
@Suite(.serialized) struct SyncUnreadableRereadTests {
    static let passphrase = "correct horse battery staple"

    /// Gives the account a new current data key, as a key rotation does, and hands it to `home`
    /// alone: what that device seals from now on opens only where the new key is held. The new
    /// key is not chained to the old one, so other devices cannot learn it from the ring by
    /// themselves (as with a chain they cannot follow): only unlocking gives it to them.
    static func rotateKey(server: SyncTestServer, token: String, into home: String) async throws {
        let transport = HTTPSyncTransport(
            baseURL: server.baseURL, token: token, timeout: SyncTestServer.clientTimeout, now: { Date() })
        let document = try #require(try await transport.keyRing(), "the account is encrypted")
        var rotated = try document.keyring.rotated(unlocked: try document.keyring.unlock(passphrase: passphrase))
        rotated.ring.keys[rotated.ring.keys.count - 1].chain = nil
        _ = try await transport.storeKeyRing(KeyRingDocument(version: document.version, keyring: rotated.ring))
        try settings(of: home).setDataKeys(rotated.unlocked.dataKeys)
    }

    static func settings(of home: String) -> SyncSettings {
        SyncSettings(configPath: home + "/config.toml", credentialsPath: home + "/credentials")
    }

    /// The items `quire status --json` lists as unreadable: id and reason.
    static func unreadable(home: String) async throws -> [String: String] {
        let status = try await QuireBinary.execute(["status", "--json"], home: home).object()
        let marked = try #require(status["unreadable"] as? [[String: Any]], "\(status)")
        return Dictionary(
            uniqueKeysWithValues: marked.map { ($0["item"] as? String ?? "?", $0["reason"] as? String ?? "?") })
    }

    /// Two devices of one encrypted account on a started server: the phone holds the account's
    /// first key and an item written under it; then the laptop gets a second key and seals
    /// everything it writes under it: three new items, and that first item renamed.
    struct Accounts {
        let server: SyncTestServer
        let laptop: String
        let phone: String
        let early: String
        /// The new items' ids and titles.
        let late: [String: String]

        static func start() async throws -> Accounts {
            let (server, token) = try await SyncTestServer.running(user: "ann")
            let laptop = try QuireBinary.makeHome("reread")
            let phone = try QuireBinary.makeHome("reread")
            for home in [laptop, phone] {
                try await QuireBinary.must(["remote", "set", server.baseURL, "--token", token], home: home)
            }
            try await QuireBinary.must(
                ["encryption", "enable", "--passphrase-stdin"], home: laptop,
                stdin: SyncUnreadableRereadTests.passphrase)
            let early = try await QuireBinary.must(["add", "Written under the first key"], home: laptop)
            try await QuireBinary.must(["sync"], home: laptop)
            try await QuireBinary.must(
                ["encryption", "unlock", "--passphrase-stdin"], home: phone, stdin: SyncUnreadableRereadTests.passphrase
            )
            try await QuireBinary.must(["sync"], home: phone)
            try await SyncUnreadableRereadTests.rotateKey(server: server, token: token, into: laptop)
            var late: [String: String] = [:]
            for title in ["Groceries", "Call the plumber", "Garden plans"] {
                late[try await QuireBinary.must(["add", title, "--body", "about \(title)"], home: laptop)] = title
            }
            try await QuireBinary.must(["edit", early, "--title", "Renamed under the second key"], home: laptop)
            try await QuireBinary.must(["sync"], home: laptop)
            return Accounts(server: server, laptop: laptop, phone: phone, early: early, late: late)
        }

        func stop() async {
            await server.stop()
            for home in [laptop, phone] { try? FileManager.default.removeItem(atPath: home) }
        }
    }

    /// The phone's store and a ledger over it, as its next `quire sync` would read them.
    static func ledger(of home: String) throws -> (AppDatabase, SyncLedger) {
        let store = try AppDatabase.open(path: home + "/quire.db")
        return (store, SyncLedger(storage: store.syncStorage(), now: { Date() }, newID: { _ in UUID().uuidString }))
    }

    @Test func itemsSealedUnderAKeyLearnedLaterOpenAtTheNextSync() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let (phone, early, late) = (accounts.phone, accounts.early, accounts.late)

        // The phone syncs before it holds the new key: those items are marked with the reason.
        try await QuireBinary.must(["sync"], home: phone)
        let marked = try await Self.unreadable(home: phone)
        #expect(Set(marked.keys) == Set(late.keys).union([early]), "\(marked)")
        #expect(
            marked.values.allSatisfy { $0.contains("sealed under key id 2, which this device does not have") },
            "\(marked)")
        let before = try await QuireBinary.must(["show", early, "--json"], home: phone)
        #expect(before.contains("Written under the first key"), "the copy it held stays: \(before)")

        // It unlocks again, learning the second key, and syncs once: every item opens.
        try await QuireBinary.must(["encryption", "unlock", "--passphrase-stdin"], home: phone, stdin: Self.passphrase)
        try await QuireBinary.must(["sync"], home: phone)
        #expect(try await Self.unreadable(home: phone).isEmpty, "no marks are left")
        let listed = try await QuireBinary.must(["list", "--all", "--json"], home: phone)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        let titles = Dictionary(
            uniqueKeysWithValues: items.map { ($0["id"] as? String ?? "?", $0["title"] as? String) })
        for (id, title) in late { #expect(titles[id] == title, "\(id) opened") }
        #expect(titles[early] == "Renamed under the second key")
        let shown = try await QuireBinary.must(["show", late.keys.first!, "--json"], home: phone)
        #expect(shown.contains("about "), "its body opened too: \(shown)")

        // Its state hash is the server's, and a later sync reads nothing again.
        let (store, ledger) = try Self.ledger(of: phone)
        let serverHash = try #require(try ledger.position().stateHash)
        #expect(try ledger.quiescentStateHash() == serverHash, "the state hashes are equal")
        let events = try store.recentSyncEvents(limit: 1_000).filter { $0.kind == .unreadable }
        #expect(events.first?.message.contains("read 4 unreadable items again") == true, "\(events.map(\.message))")
        #expect(events.first?.message.contains("4 now open, 0 still do not") == true, "\(events.map(\.message))")
    }

    /// An item no key opens (its server copy altered) stays marked, with the reason it has now,
    /// while the others open; it is not read again until the keys change once more.
    @Test func anItemThatStillDoesNotOpenStaysMarkedWithItsNewReason() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let phone = accounts.phone
        let altered = try #require(accounts.late.first { $0.value == "Garden plans" }?.key)
        try SyncEncryptionTamperTests.flipACharacter(ofSealedBody: altered, in: accounts.server.databasePath)
        try await QuireBinary.must(["sync"], home: phone)
        #expect(try await Self.unreadable(home: phone).count == 4)

        try await QuireBinary.must(["encryption", "unlock", "--passphrase-stdin"], home: phone, stdin: Self.passphrase)
        try await QuireBinary.must(["sync"], home: phone)
        let marked = try await Self.unreadable(home: phone)
        #expect(Array(marked.keys) == [altered], "\(marked)")
        #expect(marked[altered]?.contains("its body does not open") == true, "\(marked)")
        for (id, title) in accounts.late where id != altered {
            #expect(try await QuireBinary.must(["show", id, "--json"], home: phone).contains(title))
        }
        let (store, ledger) = try Self.ledger(of: phone)
        #expect(try ledger.quiescentStateHash() == ledger.position().stateHash, "the state hashes are equal")
        let said = try store.recentSyncEvents(limit: 1_000).filter { $0.message.hasPrefix("read ") }
        #expect(
            said.map(\.message) == ["read 4 unreadable items again with this device's keys: 3 now open, 1 still do not"]
        )

        // The next sync does not read it again: its keys have not changed.
        try await QuireBinary.must(["sync"], home: phone)
        #expect(try store.recentSyncEvents(limit: 1_000).filter { $0.message.hasPrefix("read ") }.count == 1)
        #expect(try await Self.unreadable(home: phone).keys.sorted() == [altered])
    }

    /// More marked items than a snapshot page holds, between items the device could read all
    /// along: the re-read walks the snapshot in pages of at most `pageSize` from one wanted
    /// item to the next, and every one opens in the first round after the keys change.
    @Test func manyMarkedItemsAreReadAgainAcrossSnapshotPages() async throws {
        var limits = Device.testLimits
        limits.pageSize = 2
        let (server, token) = try await SyncTestServer.running(user: "ann", .encrypted)
        defer { Task { await server.stop() } }
        let reader = Device("reader", server: server, token: token, limits: limits)
        let old = Device("old", server: server, token: token, limits: limits)
        let http = HTTPSyncTransport(
            baseURL: server.baseURL, token: token, timeout: SyncTestServer.clientTimeout, now: { Date() })
        let document = try #require(try await http.keyRing())
        let rotated = try document.keyring.rotated(
            unlocked: try document.keyring.unlock(passphrase: "a test passphrase"))
        server.keys = rotated.unlocked.dataKeys
        let writer = Device("writer", server: server, token: token, limits: limits)
        var sealed: [String] = []
        for n in 0..<12 {
            if n % 4 == 3 { old.create("readable \(n)") } else { sealed.append(writer.create("sealed \(n)")) }
        }
        // The old device's items land before the rotation is stored: after it, the server takes
        // nothing sealed under key 1.
        #expect(await old.sync() == .caughtUp)
        _ = try await http.storeKeyRing(KeyRingDocument(version: document.version, keyring: rotated.ring))
        #expect(await writer.sync() == .caughtUp)
        #expect(await reader.sync() == .caughtUp)
        #expect(Set(reader.storage.unreadable.map(\.itemID)) == Set(sealed))

        let before = reader.transport.snapshotRequests
        let keys = rotated.unlocked.dataKeys
        let unlocked = SyncEngine(
            ledger: reader.engine.ledger, limits: limits, lock: nil,
            connect: { Device.sealing(reader.transport, keys: keys) })
        let outcome = await unlocked.run(.normal)
        #expect(outcome == .caughtUp, "\(reader.storage.events.suffix(5).map(\.message))")
        #expect(reader.storage.unreadable.isEmpty, "\(reader.storage.unreadable)")
        for id in sealed { #expect(reader.item(id)?.title.hasPrefix("sealed ") == true) }
        #expect(await writer.sync() == .caughtUp)
        #expect(reader.snapshot == writer.snapshot)
        #expect(try unlocked.ledger.quiescentStateHash() == unlocked.ledger.position().stateHash)
        let reads = reader.transport.snapshotRequests - before
        #expect(reads <= sealed.count, "\(reads) snapshot reads for \(sealed.count) items")
        print("re-read \(sealed.count) items in \(reads) snapshot reads (pages of at most 2)")
    }

    /// The read of a wanted item starts at the id one less, which the server takes as `after`:
    /// a UUID, with nothing between it and the wanted id.
    @Test func theReadStartsAtTheIdOneLess() {
        let cases = [
            ("0193a9d2-0000-7000-8000-0000000000b1", "0193a9d2-0000-7000-8000-0000000000b0"),
            ("0193a9d2-0000-7000-8000-0000000000a0", "0193a9d2-0000-7000-8000-00000000009f"),
            ("0193a9d2-0000-7000-8000-000000000000", "0193a9d2-0000-7000-7fff-ffffffffffff"),
        ]
        for (id, before) in cases {
            #expect(SnapshotPage.idBefore(id) == before)
            #expect(UUIDv7Generator.isValid(before) && before < id)
        }
        #expect(SnapshotPage.idBefore("00000000-0000-0000-0000-000000000000") == nil, "read from the start")
    }
}
