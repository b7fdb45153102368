import Foundation
import QuireCore
import QuireProtocol
import Testing

@testable import QuireServer

/// SPEC "Idempotency": the server remembers each op id's result.
@Suite struct IdempotencyTests {
    @Test(arguments: StoreKind.available)
    func aReplayedBatchAppliesNothingTwice(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            let user = try await server.user(token)
            let item = Make.id()
            let other = Make.id()
            let batch = [
                Make.create(item, title: "draft"),
                Make.update(item, baseRev: 1, [.title: (.string("draft"), .string("final"))]),
                Make.create(other, title: "other"),
                Make.update(Make.id(), baseRev: 1, [.title: (.string("a"), .string("b"))]),
            ]
            let request = SyncRequest(device: Make.id(), cursor: nil, ops: batch)
            let first = try await server.sync(token, request)
            let before = try await server.store.stats(user: user)

            let second = try await server.sync(token, request)
            #expect(second.results == first.results)
            #expect(first.results.map(\.status) == [.applied, .applied, .applied, .rejected])
            let after = try await server.store.stats(user: user)
            #expect(after == before)
            #expect(after.seq == 3)
            #expect(second.changes == first.changes)

            // Replayed one by one, in a later batch, against a newer cursor: still the first answers.
            let later = try await server.sync(
                token, SyncRequest(device: Make.id(), cursor: first.cursor, ops: batch.reversed()))
            #expect(later.results == first.results.reversed())
            #expect(later.changes.isEmpty)
            #expect(try await server.store.stats(user: user) == before)
        }
    }

    @Test(arguments: StoreKind.available)
    func aLostResponseFollowedByARetryYieldsExactlyOneEffect(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            var device = DeviceModel()
            var observer = DeviceModel()
            let item = Make.id()
            try await server.round(&device, token, ops: [Make.create(item, title: "count", [.body: .string("1")])])
            let edit = Make.update(item, baseRev: 1, [.body: (.string("1"), .string("2"))])

            // The answer to this round is lost on the way back: the device keeps its old cursor.
            _ = try await server.sync(token, SyncRequest(device: device.id, cursor: device.cursor, ops: [edit]))
            let retry = try await server.round(&device, token, ops: [edit])

            #expect(retry.results.map(\.withoutServerFacts) == [.applied(edit.id, rev: 2)])
            #expect(device.items[item]?.body == "2")
            #expect(device.items[item]?.rev == 2)
            try await server.catchUp(&observer, token)
            #expect(observer.items[item]?.rev == 2)
            #expect(try await server.store.stats(user: server.user(token)).seq == 2)
        }
    }

    @Test(arguments: StoreKind.available)
    func aReplayedConflictAnswersWhatItAnsweredFirst(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            var device = DeviceModel()
            let item = Make.id()
            try await server.round(&device, token, ops: [Make.create(item, title: "a")])
            try await server.round(
                &device, token, ops: [Make.update(item, baseRev: 1, [.title: (.string("a"), .string("b"))])])
            let stale = Make.update(item, baseRev: 1, [.title: (.string("a"), .string("c"))])
            let first = try await server.round(&device, token, ops: [stale])
            try await server.round(
                &device, token, ops: [Make.update(item, baseRev: 2, [.title: (.string("b"), .string("d"))])])

            let replay = try await server.round(&device, token, ops: [stale])
            #expect(replay.results == first.results)
            #expect(replay.results.first?.status == .conflict)
            #expect(replay.results.first?.current?.title == "b")
            #expect(device.items[item]?.title == "d")
        }
    }

    @Test(arguments: StoreKind.available)
    func theSameOpTwiceInOneBatchAppliesOnce(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            let create = Make.create(Make.id(), title: "once")
            let answer = try await server.sync(
                token, SyncRequest(device: Make.id(), cursor: nil, ops: [create, create]))
            #expect(
                answer.results.map(\.withoutServerFacts) == [.applied(create.id, rev: 1), .applied(create.id, rev: 1)])
            #expect(try await server.store.stats(user: server.user(token)).seq == 1)
        }
    }
}
