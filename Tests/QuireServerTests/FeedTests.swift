import Foundation
import QuireCore
import QuireProtocol
import Testing

@testable import QuireServer

/// SPEC "Changes feed": sequence order, paging under concurrent writes, retention and resync.
@Suite struct FeedTests {
    @Test(arguments: StoreKind.available)
    func pagingWithRandomPageSizesWhileOthersWriteNeverSkipsOrRepeats(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            let items = (0..<12).map { _ in Make.id() }
            var setup = DeviceModel()
            try await server.round(&setup, token, ops: items.map { Make.create($0, title: "r1") })

            // Three writers edit random items while a reader pages with random limits.
            let finished = SharedCounter()
            let writers = (0..<3).map { index in
                Task {
                    defer { finished.increment() }
                    var device = DeviceModel()
                    var random = SystemRandomNumberGenerator()
                    _ = try await server.catchUp(&device, token)
                    for _ in 0..<25 {
                        let item = items.randomElement(using: &random)!
                        let known = device.items[item]!
                        let op = Make.update(
                            item, baseRev: known.rev,
                            [.title: (.string(known.title), .string("w\(index)-\(UUID().uuidString.prefix(6))"))])
                        _ = try await server.round(&device, token, ops: [op])
                    }
                }
            }
            var reader = DeviceModel()
            var seenRevisions: [String: [Int]] = [:]
            var random = SystemRandomNumberGenerator()
            func page() async throws -> SyncResponse {
                let answer = try await server.round(&reader, token, limit: Int.random(in: 1...5, using: &random))
                for change in answer.changes { seenRevisions[change.id, default: []].append(change.rev) }
                return answer
            }
            while finished.value < writers.count {
                _ = try await page()
            }
            for writer in writers { try await writer.value }
            var last = try await page()
            while last.more { last = try await page() }

            // Never repeats: each item's revisions arrive strictly increasing.
            for (id, revisions) in seenRevisions {
                #expect(
                    revisions == revisions.sorted() && Set(revisions).count == revisions.count,
                    "item \(id) came as \(revisions)")
            }
            // Never skips: the reader ends with every item at the server's latest revision.
            var fresh = DeviceModel()
            let truth = try await server.catchUp(&fresh, token)
            #expect(reader.items == fresh.items)
            #expect(last.stateHash == reader.stateHash)
            #expect(truth.stateHash == reader.stateHash)
        }
    }

    @Test(arguments: StoreKind.available)
    func aCursorOlderThanTheRetentionHorizonMustResync(_ kind: StoreKind) async throws {
        try await withHarness(kind, configure: { $0.retentionDays = 90 }) { server in
            let token = try await server.addUser("ann")
            var writer = DeviceModel()
            var sleeper = DeviceModel()
            let gone = Make.id()
            let kept = Make.id()
            try await server.round(
                &writer, token, ops: [Make.create(gone, title: "gone"), Make.create(kept, title: "kept")])
            try await server.round(&sleeper, token)
            let pending = sleeper.cursor
            try await server.round(&writer, token, ops: [Make.delete(gone, baseRev: 1)])

            server.clock.advance(days: 91)
            let purged = try await server.store.purge(before: server.clock.now().addingTimeInterval(-90 * 86_400))
            #expect(purged.tombstones == 1)

            // The writer saw the delete: its cursor is past the horizon and goes on.
            try await server.round(&writer, token)
            // The sleeper never saw the tombstone that is now gone: it must resync.
            let answer = try await server.post(
                token,
                SyncRequest(
                    device: sleeper.id, cursor: pending,
                    ops: [Make.update(kept, baseRev: 1, [.pinned: (.bool(false), .bool(true))])]))
            let (status, body) = try server.failure(answer)
            #expect(status == 410)
            #expect(body.error == .resyncRequired)
            // A refused round applies nothing, even its ops.
            #expect(try await server.store.stats(user: server.user(token)).seq == 3)

            let snapshot = try await server.snapshot(token)
            #expect(snapshot.items.map(\.id) == [kept])
            #expect(snapshot.next == nil)
            var recovered = DeviceModel()
            recovered.cursor = snapshot.cursor
            for item in snapshot.items { recovered.items[item.id] = item }
            let after = try await server.round(&recovered, token)
            #expect(after.stateHash == recovered.stateHash)
        }
    }

    @Test(arguments: StoreKind.available)
    func snapshotPagesAreOrderedByIdAndCoverEveryItemAndTombstone(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            var writer = DeviceModel()
            let ids = (0..<11).map { _ in Make.id() }
            try await server.round(&writer, token, ops: ids.map { Make.create($0, title: "x") })
            try await server.round(&writer, token, ops: [Make.delete(ids[4], baseRev: 1)])
            var collected: [String] = []
            var deleted: [String] = []
            var after: String?
            var cursors: [String] = []
            repeat {
                let page = try await server.snapshot(token, after: after, limit: 3)
                #expect(page.items.count <= 3)
                collected += page.items.map(\.id)
                deleted += page.items.filter(\.deleted).map(\.id)
                cursors.append(page.cursor)
                after = page.next
            } while after != nil
            #expect(collected == ids.sorted())
            #expect(deleted == [ids[4]], "a tombstone travels until it is purged")
            #expect(Set(cursors).count == 1)
        }
    }

    @Test(arguments: StoreKind.available)
    func aNewEpochOrAForeignCursorSendsTheDeviceToResync(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            var device = DeviceModel()
            let first = try await server.round(&device, token, ops: [Make.create(Make.id(), title: "x")])

            // A cursor ahead of the database (it forgot writes: a restored backup) must resync.
            let ahead = "99.\(first.epoch)"
            let (status, body) = try server.failure(
                try await server.post(token, SyncRequest(device: device.id, cursor: ahead)))
            #expect(status == 410)
            #expect(body.message.contains("ahead"))

            // After `quire-server epoch renew` every old cursor must resync.
            let renewed = try await ServerAdmin(store: server.store, now: { Date() }).renewEpoch()
            #expect(renewed != first.epoch)
            let (again, _) = try server.failure(
                try await server.post(token, SyncRequest(device: device.id, cursor: device.cursor)))
            #expect(again == 410)
            let fresh = try await server.sync(token, SyncRequest(device: device.id, cursor: nil))
            #expect(fresh.epoch == renewed)

            // A cursor this server never wrote is a bad request.
            for text in ["1", "abc", "-1.\(renewed)", "1.XYZ", "", "1.\(renewed).2"] {
                let (code, error) = try server.failure(
                    try await server.post(token, SyncRequest(device: device.id, cursor: text)))
                #expect(code == 400, "cursor \(text)")
                #expect(error.error == .badRequest)
            }
        }
    }
}
