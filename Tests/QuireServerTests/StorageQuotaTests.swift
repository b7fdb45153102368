import Foundation
import GRDB
import QuireCore
import QuireProtocol
import Testing

@testable import QuireServer

/// One user cannot fill the server: every stored row (item documents, tombstones until purged,
/// remembered answers) counts against a per-user quota, kept exactly by pushes and purges.
@Suite struct StorageQuotaTests {
    static let quota: Int64 = 16 << 10
    static let body = String(repeating: "a line of a long note\n", count: 90)

    @Test(arguments: StoreKind.available)
    func aUserPastTheQuotaIsRefusedPerOpWhileOthersAndShrinkingChangesGoOn(_ kind: StoreKind) async throws {
        try await withHarness(kind, configure: { $0.limits.userQuotaBytes = StorageQuotaTests.quota }) { server in
            let ann = try await server.addUser("ann")
            let bob = try await server.addUser("bob")
            let annID = try await server.user(ann)
            var device = DeviceModel()

            func expectCountExact(_ moment: String) async throws {
                let stats = try await server.store.stats(user: annID)
                #expect(stats.storedBytes == stats.countedBytes, "count drifted \(moment)")
                #expect(stats.storedBytes > 0)
            }

            // Creates of ~2 KB each until the quota refuses one.
            var created: [String] = []
            var refusal: OpResult?
            for index in 0..<20 where refusal == nil {
                let id = Make.id()
                let answer = try await server.round(
                    &device, ann,
                    ops: [Make.create(id, title: "note \(index)", [.body: .string(StorageQuotaTests.body)])])
                let result = try #require(answer.results.first)
                if result.status == .applied { created.append(id) } else { refusal = result }
                try await expectCountExact("after create \(index)")
            }
            let refused = try #require(refusal, "20 creates of 2 KB fitted a 16 KiB quota")
            #expect(refused.status == .rejected)
            #expect(refused.reason?.contains("storage is full") == true, "\(refused.reason ?? "")")
            #expect(!created.isEmpty && created.count < 10)
            let full = try await server.store.stats(user: annID)
            #expect(
                full.storedBytes <= StorageQuotaTests.quota + 4096, "a batch passed the quota by \(full.storedBytes)")
            #expect(full.items == created.count, "a refused create wrote an item")

            // Another user is not touched by ann's quota.
            var other = DeviceModel()
            let bobs = try await server.round(
                &other, bob, ops: [Make.create(Make.id(), title: "bob's", [.body: .string(StorageQuotaTests.body)])])
            #expect(bobs.results.first?.status == .applied)

            // Growing an item is refused; shrinking one and deleting one apply.
            let first = created[0]
            let grow = try await server.round(
                &device, ann,
                ops: [
                    Make.update(
                        first, baseRev: 1,
                        [
                            .body: (
                                .string(StorageQuotaTests.body),
                                .string(StorageQuotaTests.body + StorageQuotaTests.body)
                            )
                        ])
                ])
            #expect(grow.results.first?.status == .rejected)
            let shrink = try await server.round(
                &device, ann,
                ops: [Make.update(first, baseRev: 1, [.body: (.string(StorageQuotaTests.body), .string("short"))])])
            #expect(shrink.results.first?.status == .applied)
            let delete = try await server.round(&device, ann, ops: [Make.delete(created[1], baseRev: 1)])
            #expect(delete.results.first?.status == .applied)
            try await expectCountExact("after shrink and delete")
            let beforePurge = try await server.store.stats(user: annID)

            // A purge frees the tombstone and the old records, and the count follows exactly.
            server.clock.advance(days: 91)
            let purged = try await server.store.purge(before: server.clock.now().addingTimeInterval(-90 * 86_400))
            #expect(purged.tombstones == 1)
            #expect(purged.records > 0)
            let afterPurge = try await server.store.stats(user: annID)
            #expect(afterPurge.storedBytes == afterPurge.countedBytes)
            #expect(afterPurge.records == 0)
            #expect(afterPurge.storedBytes < beforePurge.storedBytes - 2000)
            let again = try await server.round(
                &device, ann,
                ops: [Make.create(Make.id(), title: "fits again", [.body: .string(StorageQuotaTests.body)])])
            #expect(again.results.first?.status == .applied)
            try await expectCountExact("after the purge and a new create")
        }
    }

    @Test(arguments: StoreKind.available)
    func theCountStaysExactThroughConflictsRestoresAndReplays(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let ann = try await server.addUser("ann")
            let annID = try await server.user(ann)
            var one = DeviceModel()
            var two = DeviceModel()
            let item = Make.id()
            let create = Make.create(item, title: "shared", [.body: .string("a\nb\n")])
            try await server.round(&one, ann, ops: [create])
            try await server.round(&two, ann)
            // A conflict (stale base, changed field), a replay of the create, a delete and a
            // restore of the tombstone, and a batch with several ops for one item.
            try await server.round(
                &one, ann, ops: [Make.update(item, baseRev: 1, [.title: (.string("shared"), .string("one"))])])
            try await server.round(
                &two, ann, ops: [Make.update(item, baseRev: 1, [.title: (.string("shared"), .string("two"))])])
            try await server.round(&one, ann, ops: [create])
            try await server.round(&one, ann, ops: [Make.delete(item, baseRev: 2)])
            try await server.round(
                &one, ann,
                ops: [
                    Make.update(item, baseRev: 3, [.body: (.string("a\nb\n"), .string("a\nb\nc\n"))]),
                    Make.update(item, baseRev: 4, [.title: (.string("one"), .string("restored"))]),
                ])
            let stats = try await server.store.stats(user: annID)
            #expect(stats.records >= 6)
            #expect(stats.storedBytes == stats.countedBytes)
        }
    }

    @Test func anUpgradedSQLiteDatabaseCountsWhatItAlreadyHolds() async throws {
        let made = try StoreKind.sqlite.makeStore()
        defer { made.removeFiles() }
        let store = try #require(made.store as? SQLiteStore)
        try await store.prepare()
        let token = "t-" + UUID().uuidString
        try await store.addUser(name: "ann", tokenHash: Tokens.hash(token), now: Date())
        let user = try #require(try await store.tokenOwner(tokenHash: Tokens.hash(token))).user
        let planner = PushPlanner(now: Date(), maxItemBytes: SyncLimits.maxItemBytes)
        _ = try await store.push(
            user: user, device: "d", ops: (0..<5).map { Make.create(Make.id(), title: "item \($0)") }, cursor: nil,
            planner: planner)
        let counted = try await store.stats(user: user).storedBytes
        #expect(counted > 0)

        // The database as schema 3 had it: no count, no record of the migration.
        try await store.pool.write { db in
            try db.execute(sql: "ALTER TABLE users DROP COLUMN stored_bytes")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v4 stored bytes'")
            try db.execute(sql: "UPDATE meta SET value = '3' WHERE key = 'schema'")
        }
        try await store.prepare()
        let stats = try await store.stats(user: user)
        #expect(stats.storedBytes == counted)
        #expect(stats.countedBytes == counted)
    }
}
