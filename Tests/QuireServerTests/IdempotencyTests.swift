import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOFoundationEssentialsCompat
import QuireCore
import QuireProtocol
import Testing

@testable import QuireServer

/// SPEC "Idempotency": the server remembers each op id's result.
@Suite struct IdempotencyTests {
    /// A device's changes made on one version while the answer to the first ones was lost:
    /// sent again with the next change, the replayed ones are still what the next rests on,
    /// as they were in their first batch (a delete has no from values to fall back on).
    @Test(arguments: StoreKind.available)
    func aReplayedChainIsStillWhatTheNextChangeRestsOn(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            var device = DeviceModel()
            let item = Make.id()
            try await server.round(&device, token, ops: [Make.create(item, title: "draft", [.body: .string("a\n")])])
            let chain = [
                Make.update(item, baseRev: 1, [.body: (.string("a\n"), .string("a\nb\n"))]),
                Make.update(item, baseRev: 1, [.tags: (.null, .strings(["x"]))]),
            ]
            let lost = try await server.sync(token, SyncRequest(device: device.id, cursor: device.cursor, ops: chain))
            #expect(lost.results.map(\.status) == [.applied, .applied])

            let again = try await server.round(&device, token, ops: chain + [Make.delete(item, baseRev: 1)])
            #expect(again.results.map(\.status) == [.applied, .applied, .applied])
            var reader = DeviceModel()
            try await server.catchUp(&reader, token)
            #expect(reader.items[item]?.deleted == true)
            #expect(reader.items[item]?.rev == 4, "the delete rests on the replayed chain's last version")
        }
    }

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
    func aReplayedConflictAnswersConflictWithTheItemAsItIsNow(_ kind: StoreKind) async throws {
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
            #expect(first.results.first?.current?.title == "b")
            // The record keeps the status, not a copy of the item: the replay reads it again.
            #expect(replay.results.map(\.op) == first.results.map(\.op))
            #expect(replay.results.first?.status == .conflict)
            #expect(replay.results.first?.current?.title == "d")
            #expect(replay.results.first?.current?.rev == 3)
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

/// Issue 33: a replay must not let one user multiply an item into the store or an answer.
@Suite struct ReplayAmplificationTests {
    @Test(arguments: StoreKind.available)
    func aReplayedConflictCarriesTheItemAsItIsNowAndItsCopiesStayWithinThePageLimit(_ kind: StoreKind)
        async throws
    {
        try await withHarness(kind, configure: { $0.limits.maxPageBytes = 16 << 10 }) { server in
            let token = try await server.addUser("ann")
            let writer = Make.id()
            let item = Make.id()
            let body = String(repeating: "b", count: 6000)
            _ = try await server.sync(
                token,
                SyncRequest(
                    device: writer, cursor: nil, ops: [Make.create(item, title: "first", [.body: .string(body)])]))
            var conflicts: [Op] = []
            for _ in 0..<5 {
                let op = Make.update(item, baseRev: 0, [.title: (.string("not it"), .string("mine"))])
                let answer = try await server.sync(token, SyncRequest(device: Make.id(), cursor: nil, ops: [op]))
                #expect(answer.results.map(\.status) == [.conflict])
                #expect(answer.results.first?.current?.title == "first")
                conflicts.append(op)
            }
            // The item changes after the conflicts were answered.
            _ = try await server.sync(
                token,
                SyncRequest(
                    device: writer, cursor: nil,
                    ops: [Make.update(item, baseRev: 1, [.title: (.string("first"), .string("second"))])]))

            let replay = try await server.post(token, SyncRequest(device: writer, cursor: nil, ops: conflicts))
            #expect(replay.status == .ok)
            #expect(replay.body.readableBytes < (16 << 10) + 2048, "the answer is \(replay.body.readableBytes) bytes")
            let answer = try JSONDecoder().decode(SyncResponse.self, from: Data(buffer: replay.body))
            #expect(answer.results.map(\.op) == conflicts.map(\.id))
            // Two copies fit the 16 KiB page; the others answer in a later round.
            let carried = answer.results.filter { $0.status == .conflict }
            #expect(carried.count == 2)
            #expect(carried.allSatisfy { $0.current?.title == "second" && $0.current?.rev == 2 })
            #expect(answer.results.dropFirst(2).allSatisfy { $0.status == .skipped })

            // The later round: the skipped ones sent again answer with the item.
            let later = try await server.sync(
                token, SyncRequest(device: writer, cursor: nil, ops: Array(conflicts.dropFirst(2))))
            #expect(later.results.prefix(2).allSatisfy { $0.status == .conflict && $0.current?.title == "second" })
        }
    }
}
