import Foundation
import QuireCore
import Testing

@testable import QuireProtocol

/// SPEC.md's JSON examples, byte for byte where the shape matters.
@Suite struct WireFormatTests {
    static let specRequest = """
        {
          "protocol": 1,
          "device": "0193a9d2-7c1e-7b5e-9f3a-1c2d3e4f5a6b",
          "cursor": null,
          "limit": 500,
          "ops": [
            {"op": "0193a9d2-8000-7000-8000-000000000001",
             "item": "0193a9d2-7fff-7000-8000-00000000abcd",
             "kind": "create",
             "baseRev": 0,
             "fields": {"kind": {"from": null, "to": "task"},
                        "title": {"from": null, "to": "Buy milk"},
                        "tags": {"from": null, "to": ["home"]}}}
          ]
        }
        """

    static let specResponse = """
        {
          "results": [
            {"op": "0193a9d2-8000-7000-8000-000000000001", "status": "applied", "rev": 1}
          ],
          "changes": [
            {"id": "0193a9d2-7fff-7000-8000-00000000abcd", "rev": 1, "deleted": false,
             "kind": "task", "title": "Buy milk", "body": "", "tags": ["home"], "done": false,
             "due": null, "priority": "none", "pinned": false,
             "createdAt": "2026-11-22T10:00:00Z", "updatedAt": "2026-11-22T10:00:00Z"}
          ],
          "cursor": "1",
          "more": false,
          "epoch": "5b0c2f4e",
          "stateHash": "9f2c"
        }
        """

    @Test func decodesSpecRequest() throws {
        let request = try JSONDecoder().decode(SyncRequest.self, from: Data(Self.specRequest.utf8))
        #expect(request.protocolVersion == 1)
        #expect(request.cursor == nil)
        #expect(request.limit == 500)
        #expect(request.ops.count == 1)
        let op = try #require(request.ops.first)
        #expect(op.kind == .create)
        #expect(op.fields?[.title] == FieldChange(from: .null, to: .string("Buy milk")))
        #expect(op.fields?[.tags] == FieldChange(from: .null, to: .strings(["home"])))
    }

    @Test func encodesRequestWithNullCursorAndProtocolKey() throws {
        let request = SyncRequest(device: "d", cursor: nil, limit: 10, ops: [])
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(request)) as? [String: Any])
        #expect(Set(object.keys) == ["protocol", "device", "cursor", "limit", "ops"])
        #expect(object["protocol"] as? Int == SyncProtocol.version)
        #expect(object["cursor"] is NSNull)
    }

    @Test func missingOpsMeanNone() throws {
        let request = try JSONDecoder().decode(SyncRequest.self, from: Data(#"{"protocol":1,"device":"d"}"#.utf8))
        #expect(request.ops.isEmpty)
        #expect(request.cursor == nil)
        #expect(request.limit == nil)
    }

    @Test func decodesSpecResponse() throws {
        let response = try JSONDecoder().decode(SyncResponse.self, from: Data(Self.specResponse.utf8))
        #expect(response.results == [.applied("0193a9d2-8000-7000-8000-000000000001", rev: 1)])
        let item = try #require(response.changes.first)
        #expect(item.title == "Buy milk")
        #expect(item.kind == .task)
        #expect(item.due == nil)
        #expect(Timestamp.string(from: item.createdAt) == "2026-11-22T10:00:00.000Z")
        #expect(response.cursor == "1")
        #expect(!response.more)
    }

    @Test func changeItemEncodesExactlySpecFields() throws {
        let item = ChangeItem(
            id: "0193a9d2-7fff-7000-8000-00000000abcd", rev: 1, kind: .task, title: "Buy milk", tags: ["home"],
            createdAt: Date(timeIntervalSince1970: 1_795_341_600),
            updatedAt: Date(timeIntervalSince1970: 1_795_341_600),
            version: ServerVersion(writtenAt: 7, in: "5b0c2f4e00000000")
        )
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(item)) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "id", "rev", "deleted", "kind", "title", "body", "tags", "done", "due", "priority", "pinned",
                "project", "recur", "wait", "scheduled", "createdAt",
                "updatedAt", "doneAt", "version",
            ])
        #expect(object["due"] is NSNull)
        #expect(object["createdAt"] as? String == "2026-11-22T10:00:00.000Z")
        #expect(try JSONDecoder().decode(ChangeItem.self, from: JSONEncoder().encode(item)) == item)
    }

    /// The server keeps each item's JSON as it was written: what it stored before projects
    /// existed has no `project` key and reads as none, on the fast path and the general one.
    @Test func aProjectTravelsAndItsAbsenceReadsAsNone() throws {
        let when = Date(timeIntervalSince1970: 1_795_341_600)
        let withProject = ChangeItem(
            id: "a", rev: 1, title: "t", project: "home.garden", createdAt: when, updatedAt: when)
        let without = ChangeItem(id: "b", rev: 1, title: "u", createdAt: when, updatedAt: when)
        let older = without.compactJSON().replacingOccurrences(of: #","project":null"#, with: "")
        #expect(!older.contains("project") && withProject.compactJSON().contains(#""project":"home.garden""#))
        let bytes = SyncResponse.compactJSON(
            results: [], changeDocuments: [withProject.compactJSON(), older], cursor: "1", more: false, epoch: "e",
            stateHash: "h")
        let fast = try #require(bytes.withUnsafeBufferPointer(SyncResponse.readCompact))
        #expect(fast.changes == [withProject, without])
        let general = try JSONDecoder().decode(SyncResponse.self, from: Data(bytes))
        #expect(general.changes == [withProject, without])
    }

    /// Recurrence, wait and scheduled travel on both paths; what a server stored before they
    /// existed has no such keys and reads as none.
    @Test func recurrenceWaitAndScheduledTravelAndTheirAbsenceReadsAsNone() throws {
        let when = Date(timeIntervalSince1970: 1_795_341_600)
        let planned = ChangeItem(
            id: "a", rev: 1, kind: .task, title: "t", due: Day("2026-01-31"), recur: Recurrence("monthly@31"),
            wait: Day("2026-01-28"), scheduled: Day("2026-01-30"), createdAt: when, updatedAt: when)
        let plain = ChangeItem(id: "b", rev: 1, title: "u", createdAt: when, updatedAt: when)
        let older = plain.compactJSON().replacingOccurrences(
            of: #","recur":null,"wait":null,"scheduled":null"#, with: "")
        #expect(!older.contains("recur") && !older.contains("wait"))
        #expect(planned.compactJSON().contains(#""recur":"monthly@31","wait":"2026-01-28","scheduled":"2026-01-30""#))
        let bytes = SyncResponse.compactJSON(
            results: [], changeDocuments: [planned.compactJSON(), older], cursor: "1", more: false, epoch: "e",
            stateHash: "h")
        let fast = try #require(bytes.withUnsafeBufferPointer(SyncResponse.readCompact))
        #expect(fast.changes == [planned, plain])
        let general = try JSONDecoder().decode(SyncResponse.self, from: Data(bytes))
        #expect(general.changes == [planned, plain])
        // A rule this version cannot read is no item the fast path takes.
        let unknown = planned.compactJSON().replacingOccurrences(of: "monthly@31", with: "fortnightly")
        let refused = SyncResponse.compactJSON(
            results: [], changeDocuments: [unknown], cursor: "1", more: false, epoch: "e", stateHash: "h")
        #expect(refused.withUnsafeBufferPointer(SyncResponse.readCompact) == nil)
    }

    @Test func changeItemRequiresEveryField() {
        let missingDue =
            #"{"id":"x","rev":1,"deleted":false,"kind":"note","title":"t","body":"","tags":[],"done":false,"priority":"none","pinned":false,"createdAt":"2026-11-22T10:00:00Z","updatedAt":"2026-11-22T10:00:00Z"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ChangeItem.self, from: Data(missingDue.utf8)) }
    }

    @Test func opResultsCarryOnlyTheirStatusFields() throws {
        let when = Date(timeIntervalSince1970: 1_795_341_600)
        let current = ChangeItem(id: "i", rev: 2, title: "t", createdAt: when, updatedAt: when)
        let cases: [(OpResult, Set<String>)] = [
            (.applied("o", rev: 3), ["op", "status", "rev"]),
            (.conflict("o", current: current), ["op", "status", "current"]),
            (.skipped("o"), ["op", "status"]),
            (.rejected("o", reason: "why"), ["op", "status", "reason"]),
        ]
        for (result, keys) in cases {
            let object = try #require(
                try JSONSerialization.jsonObject(with: JSONEncoder().encode(result)) as? [String: Any])
            #expect(Set(object.keys) == keys)
            #expect(try JSONDecoder().decode(OpResult.self, from: JSONEncoder().encode(result)) == result)
        }
    }

    @Test func snapshotPageWritesNullNext() throws {
        let page = SnapshotPage(items: [], next: nil, cursor: "3.ab")
        let text = String(decoding: try JSONEncoder().encode(page), as: UTF8.self)
        #expect(text.contains(#""next":null"#))
    }

    @Test func errorCodesAreSpecs() throws {
        #expect(
            ErrorCode.allCases.map(\.rawValue) == [
                "bad_request", "unauthorized", "forbidden", "not_found", "too_large", "rate_limited", "resync_required",
                "unsupported_protocol", "internal",
            ])
        let body = try JSONDecoder().decode(
            ErrorBody.self, from: Data(#"{"error":"resync_required","message":"m"}"#.utf8))
        #expect(body == ErrorBody(.resyncRequired, "m"))
    }

    @Test func itemConversionKeepsFieldsAndTakesDoneAtFromCaller() {
        let created = Date(timeIntervalSince1970: 1_700_000_000)
        let doneAt = Date(timeIntervalSince1970: 1_700_000_500)
        let item = Item(
            id: "i", kind: .task, title: "t", body: "b", tags: ["x"], done: true, doneAt: doneAt,
            due: Day("2026-01-02"),
            priority: .high, pinned: true, createdAt: created, deleted: false, rev: 4, syncState: .pending)
        let wire = ChangeItem(item)
        #expect(wire.rev == 4)
        #expect(wire.value(of: .due) == .string("2026-01-02"))
        let back = wire.item(syncState: .synced, doneAt: doneAt)
        var expected = item
        expected.syncState = .synced
        #expect(back == expected)
        for field in Field.allCases { #expect(wire.value(of: field) == item.value(of: field)) }
    }
}

@Suite struct StateHashTests {
    @Test func matchesTheDocumentedDefinition() {
        // SHA-256("0193a9d2-7fff-7000-8000-00000000abcd:1"), computed independently.
        var hash = StateHash()
        hash.toggle(id: "0193a9d2-7fff-7000-8000-00000000abcd", rev: 1)
        #expect(hash.hex == "3dd0ca551a0c94c345d15d398dba8e0d8257f94046efe794141e8ae6da14bfd9")
        hash.toggle(id: "0193a9d2-7fff-7000-8000-00000000abce", rev: 3)
        #expect(hash.hex == "455be33cf52872933e6f9198720e423d9ed56f7466cac12c46d3d64e8dc6bbc9")
    }

    @Test func isOrderIndependentAndTogglesBack() {
        let versions = (0..<50).map { (id: "item-\($0)", rev: $0 % 7 + 1) }
        let forward = StateHash(versions: versions)
        let backward = StateHash(versions: versions.reversed())
        #expect(forward == backward)
        var hash = forward
        for version in versions { hash.toggle(id: version.id, rev: version.rev) }
        #expect(hash == StateHash())
        #expect(StateHash().hex == String(repeating: "0", count: 64))
    }

    @Test func leavesOutTombstonesAndUnsyncedItems() {
        let now = Date()
        let items = [
            ChangeItem(id: "a", rev: 2, title: "a", createdAt: now, updatedAt: now),
            ChangeItem(id: "b", rev: 5, deleted: true, title: "b", createdAt: now, updatedAt: now),
            ChangeItem(id: "c", rev: 0, title: "c", createdAt: now, updatedAt: now),
        ]
        #expect(StateHash(items: items) == StateHash(versions: [(id: "a", rev: 2)]))
    }

    @Test func readsItsHexForm() {
        let hash = StateHash(versions: [(id: "x", rev: 1)])
        #expect(StateHash(hex: hash.hex) == hash)
        #expect(StateHash(hex: hash.hex.uppercased()) == hash)
        #expect(StateHash(hex: "zz") == nil)
        #expect(StateHash(hex: String(repeating: "g", count: 64)) == nil)
    }

    @Test func contentHashIsLowercaseSHA256() {
        #expect(ContentHash.sha256Hex("hello") == "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")
    }
}
