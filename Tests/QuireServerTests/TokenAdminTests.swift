import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import PostgresNIO
import QuireCore
import QuireProtocol
import QuireTestSupport
import Testing

@testable import QuireServer

/// Tokens per device and removing a user (issue 33): one lost device is revoked alone, and a
/// removed user leaves nothing behind.
@Suite struct TokenAdminTests {
    /// Rows in every table that belong to the user `id`.
    static func rows(of id: UserID, in store: any SyncStore) async throws -> Int {
        let tables = ["items", "tokens", "op_results", "lineage"]
        if let sqlite = store as? SQLiteStore {
            return try await sqlite.pool.read { db in
                try tables.reduce(0) {
                    $0
                        + (try Int.fetchOne(
                            db, sql: "SELECT COUNT(*) FROM \($1) WHERE user_id = ?", arguments: [id.rawValue]) ?? 0)
                }
                    + (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users WHERE id = ?", arguments: [id.rawValue])
                        ?? 0)
            }
        }
        let postgres = try #require(store as? PostgresStore)
        var total = 0
        for (table, column) in tables.map({ ($0, "user_id") }) + [("users", "id")] {
            let rows = try await postgres.client.query(
                PostgresQuery(unsafeSQL: "SELECT COUNT(*) FROM \(table) WHERE \(column) = \(id.rawValue)"))
            for try await count in rows.decode(Int64.self) { total += Int(count) }
        }
        return total
    }

    @Test(arguments: StoreKind.available)
    func revokingOneDevicesTokenLeavesTheOthersWorking(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let admin = ServerAdmin(store: server.store, now: { Date() })
            _ = try await server.addUser("ann")
            let laptop = try await admin.addToken(userName: "ann", name: "laptop")
            let phone = try await admin.addToken(userName: "ann", name: "phone")
            await #expect(throws: StoreError.tokenNameTaken(user: "ann", name: "laptop")) {
                try await admin.addToken(userName: "ann", name: "laptop")
            }
            let listed = try await admin.tokens(userName: "ann")
            #expect(listed.count == 3)
            #expect(listed.compactMap(\.name).sorted() == ["laptop", "phone"])
            #expect(
                listed.allSatisfy { $0.id.count == 12 && Tokens.hash(phone).hasPrefix($0.id) == ($0.name == "phone") })

            #expect(try await admin.revokeTokens(userName: "ann", matching: .name("laptop")) == 1)
            let request = SyncRequest(device: Make.id(), cursor: nil)
            #expect(try await server.post(laptop, request).status == .unauthorized)
            #expect(try await server.post(phone, request).status == .ok)
            await #expect(throws: StoreError.noSuchToken(user: "ann", .name("laptop"))) {
                try await admin.revokeTokens(userName: "ann", matching: .name("laptop"))
            }

            let phoneID = String(Tokens.hash(phone).prefix(6))
            #expect(try await admin.revokeTokens(userName: "ann", matching: .idPrefix(phoneID)) == 1)
            #expect(try await server.post(phone, request).status == .unauthorized)
            #expect(try await admin.tokens(userName: "ann").count == 1)
        }
    }

    @Test(arguments: StoreKind.available)
    func removingAUserLeavesNoRowOfTheirsAndOthersUntouched(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let admin = ServerAdmin(store: server.store, now: { Date() })
            let ann = try await server.addUser("ann")
            let bob = try await server.addUser("bob")
            let annID = try await server.user(ann)
            _ = try await admin.addToken(userName: "ann", name: "laptop")
            let item = Make.id()
            for token in [ann, bob] {
                _ = try await server.sync(
                    token, SyncRequest(device: Make.id(), cursor: nil, ops: [Make.create(item, title: "mine")]))
            }
            _ = try await server.sync(
                ann,
                SyncRequest(
                    device: Make.id(), cursor: nil,
                    ops: [Make.update(item, baseRev: 0, [.title: (.string("x"), .string("y"))])]))
            _ = try await server.store.renewEpoch(now: server.clock.now())
            #expect(try await Self.rows(of: annID, in: server.store) > 5)

            let removed = try await admin.removeUser(name: "ann")
            #expect(removed.items == 1 && removed.tokens == 2)
            #expect(try await Self.rows(of: annID, in: server.store) == 0)
            #expect(try await server.post(ann, SyncRequest(device: Make.id(), cursor: nil)).status == .unauthorized)
            #expect(try await admin.users().map(\.name) == ["bob"])
            let page = try await server.snapshot(bob)
            #expect(page.items.map(\.title) == ["mine"])
            await #expect(throws: StoreError.userNotFound("ann")) { try await admin.removeUser(name: "ann") }
        }
    }
}
