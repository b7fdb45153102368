import Foundation
import GRDB
import QuireTestSupport
import Testing

/// Tombstones carry no content (SPEC), through the built `quire` on three devices and a real
/// server: a deleted item's text stays on the devices that had it, goes to no new device, and
/// comes back everywhere when a device that kept it restores it.
@Suite(.serialized) struct SyncTombstoneTests {
    func makeHome() throws -> String { try QuireBinary.makeHome("tombstone") }

    @discardableResult
    func quire(_ home: String, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> String
    {
        try await QuireBinary.expectingSuccess(arguments, home: home, sourceLocation: sourceLocation).stdout
    }

    /// The device's copy of the item (deleted ones too), nil when it holds none.
    func copy(of id: String, on home: String) async throws -> [String: Any]? {
        let out = try await quire(home, "list", "--all", "--json")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
        return list.first { $0["id"] as? String == id }
    }

    @Test(arguments: AccountEncryption.allCases)
    func aDeletedItemsTextStaysOnItsDevicesAndComesBackWithARestore(_ encryption: AccountEncryption) async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann", encryption)
        defer { Task { await server.stop() } }
        let (laptop, phone, tablet) = (try makeHome(), try makeHome(), try makeHome())
        defer { for home in [laptop, phone, tablet] { try? FileManager.default.removeItem(atPath: home) } }
        for home in [laptop, phone] {
            try await quire(home, "remote", "set", server.baseURL, "--token", token)
            try server.handKeys(toHome: home)
        }

        let word = "zqtomb" + UUID().uuidString.prefix(8).lowercased()
        let id = try await quire(laptop, "add", "Letter \(word)", "--body", "Dear \(word)", "--tag", word)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try await quire(laptop, "sync")
        try await quire(phone, "sync")
        try await quire(laptop, "rm", id)
        try await quire(laptop, "sync")
        try await quire(phone, "sync")

        // The server's row of the item, what it sends any device, says only that it is deleted.
        var readOnly = Configuration()
        readOnly.readonly = true
        let rows = try DatabaseQueue(path: server.databasePath, configuration: readOnly)
        let doc = try await rows.read { db in
            try String.fetchOne(db, sql: "SELECT doc FROM items WHERE id = ? AND deleted = 1", arguments: [id])
        }
        #expect(doc != nil, "a tombstone is kept")
        #expect(doc.map { !$0.contains(word) && !$0.contains("Letter") } == true, "\(doc ?? "")")
        try rows.close()

        // The devices that had it keep it, deleted, with its text.
        for home in [laptop, phone] {
            let kept = try #require(try await copy(of: id, on: home))
            #expect(kept["deleted"] as? Bool == true)
            #expect(kept["body"] as? String == "Dear \(word)")
        }
        // A device set up after the delete holds nothing of it.
        try await quire(tablet, "remote", "set", server.baseURL, "--token", token)
        try server.handKeys(toHome: tablet)
        try await quire(tablet, "sync")
        #expect(try await copy(of: id, on: tablet) == nil)

        // The phone restores it: its text comes back on every device, the new one included.
        try await quire(phone, "restore", id)
        try await quire(phone, "sync")
        for home in [tablet, laptop] { try await quire(home, "sync") }
        for home in [laptop, phone, tablet] {
            let live = try #require(try await copy(of: id, on: home), "\(home)")
            #expect(live["deleted"] as? Bool == false)
            #expect(live["title"] as? String == "Letter \(word)")
            #expect(live["body"] as? String == "Dear \(word)")
            #expect(live["tags"] as? [String] == [word])
        }
        try server.expectNoContentLeaks()
    }
}
