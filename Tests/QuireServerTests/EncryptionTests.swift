import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOFoundationEssentialsCompat
import PostgresNIO
import QuireCore
import QuireCrypto
import QuireProtocol
import Testing

@testable import QuireServer

/// SPEC "End-to-end encryption", the server's side: it keeps an account's key ring by version,
/// refuses plain values once the account is encrypted, keeps sealed values without reading
/// them, and decides conditional writes by the MACs the devices send.
@Suite struct EncryptionTests {
    /// A device's keys and what it seals with them, made with QuireCrypto alone (not with the
    /// client's sealing code, which these tests must not rest on).
    struct Keys {
        let new: NewKeyRing
        /// The ring as it stands, and the keys values are sealed under: the new ring's until
        /// `rotated()`.
        private(set) var ring: KeyRing
        private(set) var unlocked: UnlockedKeyRing
        var data: DataKeys { unlocked.dataKeys }

        init() throws {
            new = try KeyRing.create(passphrase: "correct horse", parameters: .minimum)
            ring = new.ring
            unlocked = new.unlocked
        }

        /// These keys after `quire encryption rotate`: a new data key current in the ring, and
        /// every value sealed under it from then on.
        func rotated() throws -> Keys {
            var next = self
            (next.ring, next.unlocked) = try ring.rotated(unlocked: unlocked)
            return next
        }

        func sealed(_ value: FieldValue, item: String, field: Field) -> FieldValue {
            var bytes: [UInt8] = []
            CompactJSON.appendValue(value, to: &bytes)
            let text = FieldCipher.seal(Data(bytes), item: item, field: field.rawValue, keys: data)
            return .sealed(SealedValue(text: text, mac: mac(value, item: item, field: field).macText))
        }

        func mac(_ value: FieldValue, item: String, field: Field) -> FieldValue {
            var bytes: [UInt8] = []
            CompactJSON.appendValue(value, to: &bytes)
            return .mac(ValueMAC.mac(of: Data(bytes), item: item, field: field.rawValue, keys: data))
        }

        /// A create carrying every field, sealed.
        func create(_ item: String, title: String) -> Op {
            let blank = ChangeItem(id: item, rev: 0, title: title, createdAt: Date(), updatedAt: Date())
            var fields: [Field: FieldChange] = [:]
            for field in Field.allCases {
                let value = blank.value(of: field)
                fields[field] = FieldChange(
                    from: mac(.null, item: item, field: field), to: sealed(value, item: item, field: field))
            }
            return Op(id: Make.id(), item: item, kind: .create, baseRev: 0, fields: fields)
        }
    }

    func putKeyRing(_ server: Harness, _ token: String, _ keys: Keys, version: Int) async throws -> TestResponse {
        let body = try JSONEncoder().encode(KeyRingDocument(version: version, keyring: keys.ring))
        return try await server.send(.put, SyncProtocol.keyringPath, token: token, body: Array(body))
    }

    @Test(arguments: StoreKind.available)
    func theKeyRingIsKeptByVersionAndAConcurrentWriteIsRefused(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            let missing = try await server.send(.get, SyncProtocol.keyringPath, token: token)
            #expect(missing.status == .notFound)

            let keys = try Keys()
            let first = try await putKeyRing(server, token, keys, version: 0)
            #expect(first.status == .ok)
            #expect(String(buffer: first.body) == #"{"version":1}"#)

            // A second device that also read "no ring" loses the race: told, not overwritten.
            let other = try Keys()
            let late = try await putKeyRing(server, token, other, version: 0)
            #expect(late.status == .conflict)
            #expect(try server.failure(late).1.message.contains("key ring changed meanwhile"))

            let fetched = try await server.send(.get, SyncProtocol.keyringPath, token: token)
            let document = try JSONDecoder().decode(KeyRingDocument.self, from: Data(buffer: fetched.body))
            #expect(document.version == 1)
            #expect(document.keyring == keys.new.ring)

            let next = try await putKeyRing(server, token, keys, version: 1)
            #expect(String(buffer: next.body) == #"{"version":2}"#)

            // Another user sees none of it.
            let bob = try await server.addUser("bob")
            let bobs = try await server.send(.get, SyncProtocol.keyringPath, token: bob)
            #expect(bobs.status == .notFound)
        }
    }

    @Test(arguments: StoreKind.available)
    func aMalformedKeyRingIsRefusedAndChangesNothing(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            let ring = try JSONSerialization.jsonObject(with: try Keys().new.ring.encoded())
            var damaged = try #require(ring as? [String: Any])
            damaged["currentKey"] = 9
            let body = try JSONSerialization.data(withJSONObject: ["version": 0, "keyring": damaged])
            let answer = try await server.send(.put, SyncProtocol.keyringPath, token: token, body: Array(body))
            #expect(answer.status == .badRequest)
            #expect(try server.failure(answer).1.message.contains("current data key 9"))
            let notJSON = try await server.send(.put, SyncProtocol.keyringPath, token: token, body: Array("{".utf8))
            #expect(notJSON.status == .badRequest)
            let after = try await server.send(.get, SyncProtocol.keyringPath, token: token)
            #expect(after.status == .notFound)
        }
    }

    @Test(arguments: StoreKind.available)
    func onceEncryptedPlainWritesAreRefusedWholeAndSealedOnesKeptBlind(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            let keys = try Keys()
            var laptop = DeviceModel()
            var phone = DeviceModel()

            // Sealed values where no key ring is: refused whole, nothing written.
            let early = try await server.post(
                token, SyncRequest(device: laptop.id, cursor: nil, ops: [keys.create(Make.id(), title: "x")]))
            #expect(early.status == .conflict)
            #expect(try server.failure(early).1.message.contains("no key ring for this account"))

            #expect(try await putKeyRing(server, token, keys, version: 0).status == .ok)
            let user = try await server.user(token)
            let before = try await server.store.stats(user: user)

            // A device without the keys: one plain op among sealed ones refuses the whole push.
            let item = Make.id()
            let mixed = [keys.create(item, title: "Sealed"), Make.create(Make.id(), title: "Plain canary")]
            let refused = try await server.post(token, SyncRequest(device: laptop.id, cursor: nil, ops: mixed))
            #expect(refused.status == .forbidden)
            #expect(try server.failure(refused).1.error == .forbidden)
            #expect(try server.failure(refused).1.message.contains("quire encryption unlock"))
            #expect(try await server.store.stats(user: user).seq == before.seq)

            let answer = try await server.round(&laptop, token, ops: [keys.create(item, title: "Sealed")])
            #expect(answer.results.map(\.status) == [.applied])
            #expect(answer.keyring == 1)

            let pulled = try await server.catchUp(&phone, token)
            #expect(pulled.keyring == 1)
            let stored = try #require(phone.items[item])
            #expect(stored.sealed?.count == Field.allCases.count)
            #expect(stored.title == "")
            let title = try #require(stored.sealed?[.title])
            let opened = try FieldCipher.open(title.text, item: item, field: "title", keys: keys.data)
            #expect(String(decoding: opened, as: UTF8.self) == #""Sealed""#)
            #expect(try await server.snapshot(token).keyring == 1)
        }
    }

    @Test(arguments: StoreKind.available)
    func conditionalWritesCompareTheMACsOfTheValuesChangedFrom(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            let keys = try Keys()
            #expect(try await putKeyRing(server, token, keys, version: 0).status == .ok)
            var laptop = DeviceModel()
            var phone = DeviceModel()
            let item = Make.id()
            try await server.round(&laptop, token, ops: [keys.create(item, title: "Plan")])
            try await server.catchUp(&phone, token)

            func change(_ field: Field, from old: FieldValue, to new: FieldValue) -> FieldChange {
                FieldChange(
                    from: keys.mac(old, item: item, field: field), to: keys.sealed(new, item: item, field: field))
            }
            // The laptop retitles; the phone, still at rev 1, pins: other fields, both apply.
            let retitle = Op(
                id: Make.id(), item: item, kind: .update, baseRev: 1,
                fields: [.title: change(.title, from: .string("Plan"), to: .string("Trip plan"))])
            #expect(try await server.round(&laptop, token, ops: [retitle]).results.first?.status == .applied)
            let pin = Op(
                id: Make.id(), item: item, kind: .update, baseRev: 1,
                fields: [.pinned: change(.pinned, from: .bool(false), to: .bool(true))])
            #expect(try await server.round(&phone, token, ops: [pin]).results.first?.status == .applied)

            // The phone then retitles from the title it last saw: its MAC no longer holds.
            let stale = Op(
                id: Make.id(), item: item, kind: .update, baseRev: 1,
                fields: [.title: change(.title, from: .string("Plan"), to: .string("Plans"))])
            let conflict = try await server.round(&phone, token, ops: [stale])
            #expect(conflict.results.first?.status == .conflict)
            let current = try #require(conflict.results.first?.current)
            let title = try FieldCipher.open(
                try #require(current.sealed?[.title]).text, item: item, field: "title", keys: keys.data)
            #expect(String(decoding: title, as: UTF8.self) == #""Trip plan""#)
        }
    }

    @Test(arguments: StoreKind.available)
    func theFirstKeyRingDropsTombstoneContentAndAPlainItemIsSealedOnlyWhole(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            var laptop = DeviceModel()
            let gone = Make.id()
            let kept = Make.id()
            try await server.round(
                &laptop, token,
                ops: [
                    Make.create(gone, title: "Secret canary", [.body: .string("canary body")]),
                    Make.create(kept, title: "Kept canary"),
                ])
            try await server.round(&laptop, token, ops: [Make.delete(gone, baseRev: 1)])

            let keys = try Keys()
            #expect(try await putKeyRing(server, token, keys, version: 0).status == .ok)
            let snapshot = try await server.snapshot(token)
            let tombstone = try #require(snapshot.items.first { $0.id == gone })
            #expect(tombstone.deleted && tombstone.title.isEmpty && tombstone.body.isEmpty)
            #expect(tombstone.rev == 2)

            // Sealing part of a plain item would leave it half readable: refused.
            let partial = Op(
                id: Make.id(), item: kept, kind: .update, baseRev: 1,
                fields: [
                    .title: FieldChange(
                        from: keys.mac(.string("Kept canary"), item: kept, field: .title),
                        to: keys.sealed(.string("Kept"), item: kept, field: .title))
                ])
            #expect(try await server.round(&laptop, token, ops: [partial]).results.first?.status == .rejected)
            var whole = keys.create(kept, title: "Kept canary")
            whole.kind = .update
            whole.baseRev = 1
            whole.baseVersion = laptop.items[kept]?.version
            #expect(try await server.round(&laptop, token, ops: [whole]).results.first?.status == .applied)
            let page = try await server.snapshot(token)
            #expect(page.items.allSatisfy { $0.title.isEmpty && $0.body.isEmpty })
            #expect(page.items.first { $0.id == kept }?.sealed?.count == Field.allCases.count)
        }
    }
}

extension EncryptionTests {
    /// Everything the store holds for every user, as text: the database file and its WAL for
    /// SQLite; every row of every table of the schema, as JSON, for PostgreSQL (a table dump).
    static func dump(_ store: any SyncStore) async throws -> String {
        if let sqlite = store as? SQLiteStore {
            return [sqlite.path, sqlite.path + "-wal"].compactMap { FileManager.default.contents(atPath: $0) }
                .map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
        }
        let postgres = try #require(store as? PostgresStore)
        var tables: [String] = []
        let names = try await postgres.client.query(
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema()",
            logger: postgres.logger)
        for try await name in names.decode(String.self) { tables.append(name) }
        #expect(tables.contains("items"), "the dump reads the store's own tables: \(tables)")
        var text = ""
        for table in tables {
            let rows = try await postgres.client.query(
                PostgresQuery(unsafeSQL: "SELECT row_to_json(t)::text FROM \"\(table)\" t"), logger: postgres.logger)
            for try await row in rows.decode(String.self) { text += row + "\n" }
        }
        return text
    }

    @Test(arguments: StoreKind.available)
    func aWordWrittenSealedIsNowhereInTheStoreWhileAPlainAccountsIs(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            let plain = try await server.addUser("bob")
            let keys = try Keys()
            #expect(try await putKeyRing(server, token, keys, version: 0).status == .ok)
            let canary = "zqcanary" + UUID().uuidString.prefix(8).lowercased()
            let control = "zqcontrol" + UUID().uuidString.prefix(8).lowercased()
            var laptop = DeviceModel()
            var other = DeviceModel()
            let item = Make.id()
            var create = keys.create(item, title: "Buy \(canary) seeds")
            create.fields?[.body] = FieldChange(
                from: keys.mac(.string(""), item: item, field: .body),
                to: keys.sealed(.string("\(canary) in the body"), item: item, field: .body))
            create.fields?[.tags] = FieldChange(
                from: keys.mac(.null, item: item, field: .tags),
                to: keys.sealed(.strings(["\(canary)tag"]), item: item, field: .tags))
            #expect(try await server.round(&laptop, token, ops: [create]).results.first?.status == .applied)
            let edit = Op(
                id: Make.id(), item: item, kind: .update, baseRev: 1,
                fields: [
                    .title: FieldChange(
                        from: keys.mac(.string("Buy \(canary) seeds"), item: item, field: .title),
                        to: keys.sealed(.string("Buy \(canary) bulbs"), item: item, field: .title))
                ])
            #expect(try await server.round(&laptop, token, ops: [edit]).results.first?.status == .applied)
            try await server.round(&laptop, token, ops: [Make.delete(item, baseRev: 2)])
            try await server.round(&other, plain, ops: [Make.create(Make.id(), title: "Buy \(control) seeds")])

            let dump = try await Self.dump(server.store)
            #expect(dump.contains(control), "the dump holds a plain account's word")
            #expect(!dump.contains(canary), "the encrypted account's word is in the store")
        }
    }
}

extension FieldValue {
    /// The text of a `.mac` value (for building a sealed value's MAC in tests).
    fileprivate var macText: String {
        if case .mac(let text) = self { return text }
        return ""
    }
}
