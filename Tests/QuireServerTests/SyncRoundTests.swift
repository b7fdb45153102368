import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOFoundationEssentialsCompat
import QuireCore
import QuireProtocol
import Testing

@testable import QuireServer

/// SPEC "Sync protocol": a round pushes, then pulls; revisions, the feed and the state hash.
@Suite struct SyncRoundTests {
    @Test(arguments: StoreKind.available)
    func specExampleCreatesTheItemThatOtherDevicesPull(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            let body = """
                {"protocol": 1, "device": "0193a9d2-7c1e-7b5e-9f3a-1c2d3e4f5a6b", "cursor": null, "limit": 500,
                 "ops": [{"op": "0193a9d2-8000-7000-8000-000000000001", "item": "0193a9d2-7fff-7000-8000-00000000abcd",
                          "kind": "create", "baseRev": 0,
                          "fields": {"kind": {"from": null, "to": "task"}, "title": {"from": null, "to": "Buy milk"},
                                     "tags": {"from": null, "to": ["home"]}}}]}
                """
            let response = try await server.send(.post, "/v1/sync", token: token, body: Array(body.utf8))
            #expect(response.status == .ok)
            let answer = try JSONDecoder().decode(SyncResponse.self, from: Data(buffer: response.body))
            #expect(
                answer.results.map(\.withoutServerFacts) == [.applied("0193a9d2-8000-7000-8000-000000000001", rev: 1)])
            // The device that wrote it is not sent its own write back: the result says the rest.
            #expect(answer.changes.isEmpty)
            #expect(answer.results.first?.updatedAt == server.clock.now())
            #expect(answer.results.first?.version != nil)
            var other = DeviceModel()
            let pulled = try await server.round(&other, token)
            let item = try #require(pulled.changes.first)
            #expect(pulled.changes.count == 1)
            #expect(item.version == answer.results.first?.version)
            #expect(item.id == "0193a9d2-7fff-7000-8000-00000000abcd")
            #expect((item.rev, item.deleted, item.kind, item.title, item.body) == (1, false, .task, "Buy milk", ""))
            #expect(
                (item.tags, item.done, item.due, item.priority, item.pinned) == (["home"], false, nil, .none, false))
            // createdAt is the instant written in the UUIDv7 id (0x0193a9d27fff = 1733720965119 ms),
            // so both sides agree without sending it.
            #expect(Timestamp.string(from: item.createdAt) == "2024-12-09T05:09:25.119Z")
            // The create's answer carries it too, as every device then holds it.
            #expect(answer.results.first?.createdAt == item.createdAt)
            #expect(item.updatedAt == server.clock.now())
            #expect(!answer.more)
            #expect(answer.epoch.count == 16)
            #expect(answer.stateHash == StateHash(items: pulled.changes).hex)
        }
    }

    @Test(arguments: StoreKind.available)
    func revisionsGrowByOneAtEveryWrite(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            var device = DeviceModel()
            let item = Make.id()
            var ops = [Make.create(item, title: "v1")]
            for rev in 1..<5 {
                ops.append(Make.update(item, baseRev: rev, [.title: (.string("v\(rev)"), .string("v\(rev + 1)"))]))
            }
            let answer = try await server.round(&device, token, ops: ops)
            #expect(answer.results.map(\.rev) == [1, 2, 3, 4, 5])
            #expect(answer.results.allSatisfy { $0.status == .applied })
            // Only the create carries the creation time.
            #expect(answer.results.map { $0.createdAt != nil } == [true, false, false, false, false])
            #expect(device.items[item]?.rev == 5)
            #expect(device.items[item]?.title == "v5")
            // The writer is not sent its own writes back; another device gets the item once, at
            // its latest state.
            #expect(answer.changes.isEmpty)
            var other = DeviceModel()
            #expect(try await server.round(&other, token).changes.map(\.rev) == [5])
            #expect(try await server.store.stats(user: server.user(token)).seq == 5)
        }
    }

    @Test(arguments: StoreKind.available)
    func aDeviceWithNothingToPushPullsWithTheSameCall(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            var writer = DeviceModel()
            var reader = DeviceModel()
            let first = Make.id()
            let second = Make.id()
            try await server.round(
                &writer, token, ops: [Make.create(first, title: "one"), Make.create(second, title: "two")])
            let pulled = try await server.round(&reader, token)
            #expect(pulled.results.isEmpty)
            #expect(Set(pulled.changes.map(\.id)) == [first, second])
            let again = try await server.round(&reader, token)
            #expect(again.changes.isEmpty)
            #expect(again.cursor == pulled.cursor)
        }
    }

    @Test(arguments: StoreKind.available)
    func stateHashMatchesTheDevicesOwnCopyAfterCatchingUp(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            var writer = DeviceModel()
            let ids = (0..<6).map { _ in Make.id() }
            try await server.round(&writer, token, ops: ids.map { Make.create($0, title: "item") })
            try await server.round(
                &writer, token,
                ops: [
                    Make.delete(ids[0], baseRev: 1),
                    Make.update(ids[1], baseRev: 1, [.done: (.bool(false), .bool(true))]),
                ])
            var reader = DeviceModel()
            let answer = try await server.catchUp(&reader, token, limit: 2)
            #expect(answer.stateHash == reader.stateHash)
            #expect(
                answer.stateHash == StateHash(versions: ids.dropFirst().map { (id: $0, rev: $0 == ids[1] ? 2 : 1) }).hex
            )
            #expect(reader.items[ids[0]]?.deleted == true)
            // A device missing an item sees a different hash: that is how it learns to re-download.
            var partial = reader
            partial.items[ids[2]] = nil
            #expect(partial.stateHash != answer.stateHash)
        }
    }

    @Test(arguments: StoreKind.available)
    func pagesFollowTheLimitAndSayWhenMoreWaits(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            var writer = DeviceModel()
            let ids = (0..<7).map { _ in Make.id() }
            try await server.round(&writer, token, ops: ids.map { Make.create($0, title: "x") })
            var reader = DeviceModel()
            var pages: [[String]] = []
            var answer: SyncResponse
            repeat {
                answer = try await server.round(&reader, token, limit: 3)
                pages.append(answer.changes.map(\.id))
            } while answer.more
            #expect(pages.map(\.count) == [3, 3, 1])
            #expect(pages.flatMap { $0 } == ids)
        }
    }
}
