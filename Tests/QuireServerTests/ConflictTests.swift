import Foundation
import QuireCore
import QuireProtocol
import Testing

@testable import QuireServer

/// SPEC "Conditional writes", deletes and tombstones.
@Suite struct ConflictTests {
    @Test(arguments: StoreKind.available)
    func twoDevicesEditingDifferentFieldsBothSurvive(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            var laptop = DeviceModel()
            var phone = DeviceModel()
            let item = Make.id()
            try await server.round(&laptop, token, ops: [Make.create(item, title: "Plan", [.body: .string("draft")])])
            try await server.round(&phone, token)

            let title = try await server.round(
                &laptop, token,
                ops: [
                    Make.update(item, baseRev: 1, [.title: (.string("Plan"), .string("Trip plan"))])
                ])
            #expect(title.results.first?.rev == 2)
            // The phone still thinks rev 1; its body edit still holds its from-value, so it applies.
            let long = String(repeating: "x", count: 2000)
            let body = try await server.round(
                &phone, token,
                ops: [
                    Make.update(
                        item, baseRev: 1,
                        [
                            .body: (.sha256(ContentHash.sha256Hex("draft")), .string(long)),
                            .tags: (.strings([]), .strings(["travel"])),
                        ])
                ])
            #expect(body.results.first?.status == .applied)
            #expect(body.results.first?.rev == 3)
            let merged = try #require(phone.items[item])
            #expect((merged.title, merged.body, merged.tags, merged.rev) == ("Trip plan", long, ["travel"], 3))
        }
    }

    @Test(arguments: StoreKind.available)
    func theSameFieldConflictsWithTheCurrentItemAndLaterOpsForItAreSkipped(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            var laptop = DeviceModel()
            var phone = DeviceModel()
            let item = Make.id()
            let elsewhere = Make.id()
            try await server.round(
                &laptop, token, ops: [Make.create(item, title: "Milk"), Make.create(elsewhere, title: "Eggs")])
            try await server.round(&phone, token)
            try await server.round(
                &laptop, token, ops: [Make.update(item, baseRev: 1, [.title: (.string("Milk"), .string("Oat milk"))])])

            let batch = [
                Make.update(item, baseRev: 1, [.title: (.string("Milk"), .string("Whole milk"))]),
                Make.update(item, baseRev: 1, [.pinned: (.bool(false), .bool(true))]),
                Make.update(elsewhere, baseRev: 1, [.title: (.string("Eggs"), .string("Free-range eggs"))]),
            ]
            let answer = try await server.round(&phone, token, ops: batch)
            #expect(answer.results.map(\.status) == [.conflict, .skipped, .applied])
            let current = try #require(answer.results[0].current)
            #expect((current.title, current.rev, current.pinned) == ("Oat milk", 2, false))
            #expect(answer.results[1] == .skipped(batch[1].id))
            #expect(phone.items[item]?.title == "Oat milk")
            #expect(phone.items[elsewhere]?.title == "Free-range eggs")

            // A skipped op is not remembered: sent again on its own, it is tried for real.
            let retried = try await server.round(&phone, token, ops: [batch[1]])
            #expect(retried.results.first?.status == .applied)
            #expect(phone.items[item]?.pinned == true)
        }
    }

    @Test(arguments: StoreKind.available)
    func deletesTravelAsTombstonesAndCanBeRestored(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            var laptop = DeviceModel()
            var phone = DeviceModel()
            let item = Make.id()
            try await server.round(&laptop, token, ops: [Make.create(item, title: "Old", [.body: .string("keep me")])])
            try await server.round(&phone, token)

            let deleted = try await server.round(&laptop, token, ops: [Make.delete(item, baseRev: 1)])
            #expect(deleted.results.map(\.withoutServerFacts) == [.applied(deleted.results[0].op, rev: 2)])
            try await server.round(&phone, token)
            let tombstone = try #require(phone.items[item])
            #expect(tombstone.deleted)
            #expect(tombstone.isContentless, "SPEC: tombstones carry no content")
            #expect((tombstone.rev, tombstone.title, tombstone.body) == (2, "", ""))

            // Deleting again answers applied with the same revision and writes nothing.
            let again = try await server.round(&phone, token, ops: [Make.delete(item, baseRev: 2)])
            #expect(again.results.first?.rev == 2)
            #expect(again.changes.isEmpty)

            // An edit made before seeing the delete conflicts (edit against delete is for a person).
            let stale = try await server.round(
                &phone, token, ops: [Make.update(item, baseRev: 1, [.title: (.string("Old"), .string("New"))])])
            #expect(stale.results.first?.status == .conflict)
            #expect(stale.results.first?.current?.deleted == true)

            // At the tombstone's revision an update cannot restore it (there is nothing to fill
            // in what it leaves out); a create with every field does, as devices restore.
            let partial = try await server.round(
                &phone, token, ops: [Make.update(item, baseRev: 2, [.title: (.string("Old"), .string("New"))])])
            #expect(partial.results.first?.status == .rejected)
            var revival = Make.create(item, title: "New", [.body: .string("keep me")])
            revival.baseRev = 2
            let restored = try await server.round(&phone, token, ops: [revival])
            #expect(restored.results.first?.rev == 3)
            #expect(phone.items[item]?.deleted == false)
            #expect((phone.items[item]?.title, phone.items[item]?.body) == ("New", "keep me"))
        }
    }

    @Test(arguments: StoreKind.available)
    func aDeleteAgainstANewerRevisionConflicts(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            var laptop = DeviceModel()
            let item = Make.id()
            try await server.round(&laptop, token, ops: [Make.create(item, title: "a")])
            try await server.round(
                &laptop, token, ops: [Make.update(item, baseRev: 1, [.done: (.bool(false), .bool(true))])])
            let answer = try await server.round(&laptop, token, ops: [Make.delete(item, baseRev: 1)])
            #expect(answer.results.first?.status == .conflict)
            #expect(answer.results.first?.current?.done == true)
            #expect(laptop.items[item]?.deleted == false)
        }
    }

    @Test(arguments: StoreKind.available)
    func opsThatCanNeverApplyAreRejectedWithAReason(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            var device = DeviceModel()
            let item = Make.id()
            try await server.round(&device, token, ops: [Make.create(item, title: "ok")])
            let ops = [
                Make.update(Make.id(), baseRev: 1, [.title: (.string("a"), .string("b"))]),
                Make.delete(Make.id(), baseRev: 1),
                Op(
                    id: Make.id(), item: Make.id(), kind: .create, baseRev: 0,
                    fields: [.body: FieldChange(from: .null, to: .string("no title"))]),
                Make.create(Make.id(), title: "   "),
                Make.update(item, baseRev: 1, [.priority: (.string("none"), .string("urgent"))]),
                Make.update(item, baseRev: 1, [.due: (.null, .string("2026-02-30"))]),
                Make.update(item, baseRev: 1, [.done: (.bool(false), .string("yes"))]),
                Make.update(item, baseRev: 1, [.title: (.string("ok"), .string("two\nlines"))]),
                Op(
                    id: Make.id(), item: item, kind: .delete, baseRev: 1,
                    fields: [.title: FieldChange(from: .string("ok"), to: .string("x"))]),
            ]
            let answer = try await server.round(&device, token, ops: ops)
            #expect(answer.results.map(\.status) == Array(repeating: .rejected, count: ops.count))
            for result in answer.results { #expect(!(result.reason ?? "").isEmpty) }
            #expect(answer.results[4].reason?.contains("urgent") == true)
            #expect(device.items[item]?.rev == 1)
            #expect(try await server.store.stats(user: server.user(token)).seq == 1)
        }
    }

    @Test(arguments: StoreKind.available)
    func aStaleOpWhoseFromValuesStillHoldApplies(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            var device = DeviceModel()
            let item = Make.id()
            try await server.round(
                &device, token,
                ops: [Make.create(item, title: "t", [.tags: .strings(["b", "a"]), .due: .string("2026-05-01")])])
            #expect(device.items[item]?.tags == ["a", "b"])
            try await server.round(
                &device, token, ops: [Make.update(item, baseRev: 1, [.pinned: (.bool(false), .bool(true))])])
            // Tags compare as sets and dates by value, whatever order the device wrote them in.
            let answer = try await server.round(
                &device, token,
                ops: [
                    Make.update(
                        item, baseRev: 1,
                        [
                            .tags: (.strings(["b", "a", "a"]), .strings(["c"])),
                            .due: (.string("2026-05-01"), .null),
                            .priority: (.string("none"), .string("high")),
                        ])
                ])
            #expect(answer.results.first?.status == .applied)
            let stored = try #require(device.items[item])
            #expect((stored.tags, stored.due, stored.priority, stored.pinned) == (["c"], nil, .high, true))
        }
    }
}
