import Foundation
import GRDB
import QuireCore
import QuireProtocol
import QuireTestSupport
import Testing

@testable import QuireSync

/// SPEC "End-to-end encryption": a server that moves or alters a sealed value is caught, the
/// item is marked unreadable with the reason, and every other item syncs on. The built `quire`
/// on two devices, a real server on a loopback port, and its database altered underneath it.
@Suite(.serialized) struct SyncEncryptionTamperTests {
    static let passphrase = "correct horse battery staple"

    /// One item's stored document on the server, as JSON.
    static func document(_ database: String, item: String) throws -> [String: Any] {
        let queue = try DatabaseQueue(path: database)
        let text = try queue.read { db in
            try String.fetchOne(db, sql: "SELECT doc FROM items WHERE id = ?", arguments: [item])
        }
        let stored = try #require(text, "item \(item) is on the server")
        return try #require(try JSONSerialization.jsonObject(with: Data(stored.utf8)) as? [String: Any])
    }

    /// Rewrites one item's stored document on the server, underneath it.
    static func alter(_ database: String, item: String, _ change: (inout [String: Any]) throws -> Void) throws {
        var doc = try Self.document(database, item: item)
        try change(&doc)
        let text = String(decoding: try JSONSerialization.data(withJSONObject: doc), as: UTF8.self)
        let queue = try DatabaseQueue(path: database)
        try queue.write { db in try db.execute(sql: "UPDATE items SET doc = ? WHERE id = ?", arguments: [text, item]) }
    }

    /// Alters one character near the end of the item's sealed body on the server.
    static func flipACharacter(ofSealedBody item: String, in database: String) throws {
        try alter(database, item: item) { doc in
            var sealed = try #require(doc["sealed"] as? [String: Any])
            var body = try #require(sealed["body"] as? [String: Any])
            var text = Array(try #require(body["sealed"] as? String))
            text[text.count - 5] = text[text.count - 5] == "A" ? "B" : "A"
            body["sealed"] = String(text)
            sealed["body"] = body
            doc["sealed"] = sealed
        }
    }

    @Test func aMovedAlteredOrUnknownCiphertextMarksItsItemAndTheOthersSyncOn() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let laptop = try QuireBinary.makeHome("tamper")
        let phone = try QuireBinary.makeHome("tamper")
        defer { for home in [laptop, phone] { try? FileManager.default.removeItem(atPath: home) } }

        try await QuireBinary.must(["remote", "set", server.baseURL, "--token", token], home: laptop)
        try await QuireBinary.must(
            ["encryption", "enable", "--passphrase-stdin"], home: laptop, stdin: Self.passphrase)
        let moved = try await QuireBinary.must(["add", "Moved here"], home: laptop)
        let source = try await QuireBinary.must(["add", "Moved from"], home: laptop)
        let flipped = try await QuireBinary.must(["add", "Flipped", "--body", "a body of some length"], home: laptop)
        let unknown = try await QuireBinary.must(["add", "Unknown key"], home: laptop)
        let intact = try await QuireBinary.must(["add", "Intact"], home: laptop)
        try await QuireBinary.must(["sync"], home: laptop)

        let sourceTitle = (try Self.document(server.databasePath, item: source)["sealed"] as? [String: Any])?["title"]
        try Self.alter(server.databasePath, item: moved) { doc in
            var sealed = try #require(doc["sealed"] as? [String: Any])
            sealed["title"] = sourceTitle
            doc["sealed"] = sealed
        }
        try Self.flipACharacter(ofSealedBody: flipped, in: server.databasePath)
        try Self.alter(server.databasePath, item: unknown) { doc in
            var sealed = try #require(doc["sealed"] as? [String: Any])
            var title = try #require(sealed["title"] as? [String: Any])
            let text = try #require(title["sealed"] as? String)
            title["sealed"] = "v1.7." + text.split(separator: ".", maxSplits: 2)[2]
            sealed["title"] = title
            doc["sealed"] = sealed
        }

        try await QuireBinary.must(["remote", "set", server.baseURL, "--token", token], home: phone)
        try await QuireBinary.must(["encryption", "unlock", "--passphrase-stdin"], home: phone, stdin: Self.passphrase)
        _ = try await QuireBinary.execute(["sync"], home: phone)
        let listed = try await QuireBinary.must(["list", "--all", "--json"], home: phone)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        let ids = Set(items.compactMap { $0["id"] as? String })
        #expect(ids == [source, intact], "the untouched items arrive, the altered ones do not: \(ids)")

        let status = try await QuireBinary.execute(["status", "--json"], home: phone)
        let events = try #require(try status.object()["events"] as? [[String: Any]])
        let unreadable = Dictionary(
            events.filter { $0["kind"] as? String == "UNREADABLE" }.compactMap { event in
                (event["item"] as? String).map { ($0, event["message"] as? String ?? "") }
            }, uniquingKeysWith: { first, _ in first })
        #expect(Set(unreadable.keys) == [moved, flipped, unknown], "each altered item is named: \(events)")
        #expect(unreadable[moved]?.contains("title does not open") == true, "\(unreadable)")
        #expect(unreadable[flipped]?.contains("body does not open") == true, "\(unreadable)")
        #expect(unreadable[unknown]?.contains("key") == true, "\(unreadable)")
        // The laptop, which wrote them, keeps its own readable copies.
        #expect(try await QuireBinary.must(["show", moved, "--json"], home: laptop).contains("Moved here"))

        // Later syncs end caught up without downloading everything again; the items stay marked.
        for _ in 0..<2 { try await QuireBinary.must(["sync"], home: phone) }
        let later = try await QuireBinary.execute(["status", "--json"], home: phone).object()
        let recent = try #require(later["events"] as? [[String: Any]])
        #expect(!recent.contains { $0["kind"] as? String == "RESYNC" }, "no resync: \(recent)")
        let marked = try #require(later["unreadable"] as? [[String: Any]], "\(later)")
        let reasons = Dictionary(
            marked.compactMap { mark in (mark["item"] as? String).map { ($0, mark["reason"] as? String ?? "") } },
            uniquingKeysWith: { first, _ in first })
        #expect(Set(reasons.keys) == [moved, flipped, unknown], "\(marked)")
        #expect(reasons[flipped]?.contains("body does not open") == true, "\(reasons)")
    }
}
