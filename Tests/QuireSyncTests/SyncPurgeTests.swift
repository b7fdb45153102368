import Foundation
import QuireTestSupport
import Testing

/// `quire rm --purge` across devices (SPEC: The trash): the item is deleted on every device and
/// gone from the one that purged it, and its tombstone does not come back there.
@Suite(.serialized) struct SyncPurgeTests {
    func makeHome() throws -> String { try QuireBinary.makeHome("purge-sync") }

    @discardableResult
    func quire(_ home: String, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> CLIRun
    {
        try await QuireBinary.expectingSuccess(arguments, home: home, sourceLocation: sourceLocation)
    }

    /// Runs `body` with two devices signed in to a running server; all is removed after.
    func withTwoDevices(_ encryption: AccountEncryption, _ body: (String, String) async throws -> Void) async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann", encryption)
        defer { Task { await server.stop() } }
        let (a, b) = (try makeHome(), try makeHome())
        defer { for home in [a, b] { try? FileManager.default.removeItem(atPath: home) } }
        for home in [a, b] {
            try await quire(home, "remote", "set", server.baseURL, "--token", token)
            try server.handKeys(toHome: home)
        }
        try await body(a, b)
        try server.expectNoContentLeaks()
    }

    /// Every item the device holds, deleted ones too, as id → deleted.
    func items(_ home: String) async throws -> [String: Bool] {
        let run = try await quire(home, "list", "--all", "--json")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: list.compactMap { item in
                (item["id"] as? String).map { ($0, item["deleted"] as? Bool ?? false) }
            })
    }

    @Test(arguments: AccountEncryption.allCases)
    func aPurgedItemIsDeletedEverywhereAndGoneFromItsDevice(_ encryption: AccountEncryption) async throws {
        try await withTwoDevices(encryption) { a, b in
            let doomed = try await quire(a, "add", "Old passwords").stdout.trimmingCharacters(
                in: .whitespacesAndNewlines)
            let kept = try await quire(a, "add", "Groceries").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            try await quire(a, "sync")
            try await quire(b, "sync")
            #expect(try await items(b) == [doomed: false, kept: false])

            let purged = try await quire(a, "rm", "--purge", "--yes", doomed)
            #expect(purged.stdout.contains("next sync"), "a synced item's delete has to go out first: \(purged.stdout)")
            try await quire(a, "sync")
            #expect(try await items(a) == [kept: false], "gone from this device once the delete went out")
            try await quire(b, "sync")
            #expect(try await items(b) == [doomed: true, kept: false], "deleted on the other device")
            // Later rounds, with news from the other device, do not bring it back here.
            try await quire(b, "edit", kept, "--title", "Groceries for Sunday")
            try await quire(b, "sync")
            try await quire(a, "sync")
            #expect(try await items(a) == [kept: false])
            let show = try await QuireBinary.execute(["show", doomed], home: a)
            #expect(show.status == 2, "\(show.stdout)")
        }
    }

    /// Another device deleted the item while this one, not yet told, purged it: the delete
    /// that comes in from the other device does not bring a tombstone back here.
    @Test(arguments: AccountEncryption.allCases)
    func anotherDevicesDeleteDoesNotBringAPurgedItemBack(_ encryption: AccountEncryption) async throws {
        try await withTwoDevices(encryption) { a, b in
            let doomed = try await quire(a, "add", "Draft letter").stdout.trimmingCharacters(
                in: .whitespacesAndNewlines)
            try await quire(a, "sync")
            try await quire(b, "sync")
            try await quire(b, "rm", doomed)
            try await quire(b, "sync")
            try await quire(a, "rm", "--purge", "--yes", doomed)
            try await quire(a, "sync")
            try await quire(a, "sync")
            #expect(try await items(a).isEmpty, "the purged item stays gone")
            #expect(try await items(b) == [doomed: true])
        }
    }

    /// Every item the device holds, deleted ones too, as id → (deleted, body, sync state).
    func bodies(_ home: String) async throws -> [String: (deleted: Bool, body: String, state: String)] {
        let run = try await QuireBinary.execute(["list", "--all", "--json"], home: home)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: list.compactMap { item in
                (item["id"] as? String).map {
                    (
                        $0,
                        (
                            item["deleted"] as? Bool ?? false, item["body"] as? String ?? "",
                            item["syncState"] as? String ?? ""
                        )
                    )
                }
            })
    }

    /// Runs `quire sync`, which may end 0 or 5 (items need review) but must not fail.
    func sync(_ home: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let run = try await QuireBinary.execute(["sync"], home: home)
        #expect([0, 5].contains(run.status), "sync: \(run.stdout) \(run.stderr)", sourceLocation: sourceLocation)
    }

    /// A note added on `a` and synced to `b`; its id.
    func recipeOnBoth(_ a: String, _ b: String) async throws -> String {
        let id = try await quire(a, "add", "Recipe", "--body", "flour\nsugar").stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        try await quire(a, "sync")
        try await quire(b, "sync")
        return id
    }

    /// The other device edited the item and its edit reached the server first; this device,
    /// not yet told, purged it. Edit against delete keeps the edit (SPEC: merge rules): the
    /// text typed there is lost nowhere, and the purge does not take it from the other device.
    @Test(arguments: AccountEncryption.allCases)
    func anEditMadeMeanwhileElsewhereOutlivesAPurge(_ encryption: AccountEncryption) async throws {
        try await withTwoDevices(encryption) { a, b in
            let id = try await recipeOnBoth(a, b)
            try await quire(b, "edit", id, "--body", "flour\nsugar\neggs typed on b")
            try await quire(b, "sync")
            try await quire(a, "rm", "--purge", "--yes", id)
            for home in [a, b, a, b] { try await sync(home) }
            let onB = try #require(try await bodies(b)[id], "the item is still on the device that edited it")
            #expect(onB.body.contains("eggs typed on b"), "\(onB)")
            #expect(!onB.deleted, "the edit wins over the delete there: \(onB)")
            let onA = try await bodies(a)[id]
            #expect(
                onA.map { !$0.deleted && $0.body.contains("eggs typed on b") } ?? false,
                "the edit comes back to the device that purged, to review: \(String(describing: onA))")
        }
    }

    /// This device's purge reached the server first; the other device, not yet told, edited the
    /// item. Its edit meets the tombstone: it is kept there, for review (nothing typed is lost),
    /// and restoring it with the edit brings the item back on the device that purged it.
    @Test(arguments: AccountEncryption.allCases)
    func anEditMeetingAPurgedItemsTombstoneIsKeptAndCanReviveIt(_ encryption: AccountEncryption) async throws {
        try await withTwoDevices(encryption) { a, b in
            let id = try await recipeOnBoth(a, b)
            try await quire(a, "rm", "--purge", "--yes", id)
            try await quire(a, "sync")
            #expect(try await bodies(a)[id] == nil, "gone from the device that purged it")
            try await quire(b, "edit", id, "--body", "flour\nsugar\neggs typed on b")
            try await sync(b)
            let onB = try #require(try await bodies(b)[id])
            #expect(onB.body.contains("eggs typed on b"), "the text typed is kept: \(onB)")
            #expect(!onB.deleted && onB.state == "needs-review", "kept for review: \(onB)")

            // Restored with the edit: the item is back everywhere, the purged device included.
            try await quire(b, "resolve", id, "--keep", "local")
            try await sync(b)
            try await sync(a)
            let onA = try #require(try await bodies(a)[id], "revived on the device that purged it")
            #expect(!onA.deleted && onA.body.contains("eggs typed on b"), "\(onA)")
        }
    }
}
