import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import PostgresNIO
import QuireCore
import QuireProtocol
import Testing

@testable import QuireServer

/// After a rotation, the server takes no new value sealed under a data key older than the one
/// the account's ring names current: a lost device may hold that key. On SQLite and PostgreSQL.
@Suite struct KeyRotationRefusalTests {
    typealias Keys = EncryptionTests.Keys

    /// An update of `field` from `old` (its MAC under `from`'s current key) to `new` (sealed
    /// under `to`'s), made on revision `baseRev`.
    static func update(
        _ item: String, baseRev: Int, _ field: Field, from old: FieldValue, under from: Keys, to new: FieldValue,
        under to: Keys
    ) -> Op {
        Op(
            id: Make.id(), item: item, kind: .update, baseRev: baseRev,
            fields: [
                field: FieldChange(
                    from: from.mac(old, item: item, field: field), to: to.sealed(new, item: item, field: field))
            ])
    }

    @Test(arguments: StoreKind.available)
    func valuesSealedUnderAnOlderKeyAreRefusedWholeNamingTheRing(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            let before = try Keys()
            #expect(try await EncryptionTests().putKeyRing(server, token, before, version: 0).status == .ok)
            var laptop = DeviceModel()
            var phone = DeviceModel()
            let item = Make.id()
            try await server.round(&laptop, token, ops: [before.create(item, title: "Plan")])
            try await server.catchUp(&phone, token)

            // The laptop rotates and pins the item under key 2, while the phone is away.
            let after = try before.rotated()
            #expect(try await EncryptionTests().putKeyRing(server, token, after, version: 1).status == .ok)
            let pin = Self.update(
                item, baseRev: 1, .pinned, from: .bool(false), under: after, to: .bool(true), under: after)
            #expect(try await server.round(&laptop, token, ops: [pin]).results.map(\.status) == [.applied])
            let user = try await server.user(token)
            let written = try await server.store.stats(user: user).seq

            // The phone comes back with what it wrote under key 1: nothing of it is written.
            let fresh = Make.id()
            let away = [
                before.create(fresh, title: "Written away"),
                Self.update(
                    item, baseRev: 1, .title, from: .string("Plan"), under: before, to: .string("Trip plan"),
                    under: before),
            ]
            let refused = try await server.post(token, SyncRequest(device: phone.id, cursor: phone.cursor, ops: away))
            #expect(refused.status == .conflict)
            let body = try server.failure(refused).1
            #expect(body.error == .badRequest && body.keyring == 2, "\(body)")
            #expect(body.message.contains("older data key") && body.message.contains("nothing was written"))
            #expect(try await server.store.stats(user: user).seq == written)

            // Sealed again under key 2, the same ops apply. The title's `from` stays a MAC under
            // key 1: it names the value the phone saw, which the server holds under key 1.
            let resealed = [
                after.create(fresh, title: "Written away"),
                Self.update(
                    item, baseRev: 1, .title, from: .string("Plan"), under: before, to: .string("Trip plan"),
                    under: after),
            ]
            let answer = try await server.round(&phone, token, ops: resealed)
            #expect(answer.results.map(\.status) == [.applied, .applied])

            // A key newer than the ring's is taken: a ring restored from a backup older than a
            // rotation lacks the key the devices seal under, until one of them puts it back.
            let ahead = try after.rotated()
            let restored = try await server.round(&phone, token, ops: [ahead.create(Make.id(), title: "Key 3")])
            #expect(restored.results.map(\.status) == [.applied])
        }
    }

    /// A database of the schema before the stores kept the ring's current key: `prepare` reads
    /// it from the ring's JSON, so a ring rotated before the upgrade is enforced after it.
    @Test(arguments: StoreKind.available)
    func aRingStoredBeforeTheUpgradeIsEnforcedAfterIt(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            let before = try Keys()
            let after = try before.rotated()
            #expect(try await EncryptionTests().putKeyRing(server, token, before, version: 0).status == .ok)
            #expect(try await EncryptionTests().putKeyRing(server, token, after, version: 1).status == .ok)
            try await Self.rewindToSchema6(server.store)
            try await server.store.prepare()

            let stale = SyncRequest(device: Make.id(), cursor: nil, ops: [before.create(Make.id(), title: "Old key")])
            let refused = try await server.post(token, stale)
            #expect(refused.status == .conflict)
            #expect(try server.failure(refused).1.keyring == 2)
        }
    }

    /// Drops what schema 7 added, as a database written by the server before it looks.
    static func rewindToSchema6(_ store: any SyncStore) async throws {
        if let sqlite = store as? SQLiteStore {
            try await sqlite.pool.write { db in
                try db.execute(sql: "ALTER TABLE users DROP COLUMN keyring_key")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v7 key ring current key'")
                try db.execute(sql: "UPDATE meta SET value = '6' WHERE key = 'schema'")
            }
        } else if let postgres = store as? PostgresStore {
            try await postgres.transaction { connection in
                try await connection.query("ALTER TABLE users DROP COLUMN keyring_key", logger: quietLogger)
                try await connection.query("UPDATE meta SET value = '6' WHERE key = 'schema'", logger: quietLogger)
            }
        }
    }
}
