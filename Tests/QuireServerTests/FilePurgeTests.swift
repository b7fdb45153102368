import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import QuireProtocol
import Testing

@testable import QuireServer

/// The server purges a committed file once no item can reference it (issue 32), and never
/// wrongly: devices name the items that claim a file when they commit it, the server cannot
/// read encrypted items, so claims are all it goes by. On each store, behind the real router.
@Suite struct FilePurgeTests {
    typealias Endpoints = ChunkEndpointTests

    /// One purge as the running server makes it, `days` of retention, counted in `metrics`.
    func purge(_ server: Harness, days: Int = 30, metrics: ServerMetrics) async throws {
        let chunks = try #require(server.store as? any ChunkStore)
        let purge = PurgeService(
            store: server.store, chunks: chunks, metrics: metrics, retentionDays: days, interval: .seconds(3600),
            now: { server.clock.now() }, logger: Logger(label: "purge-test"))
        await purge.purgeOnce()
    }

    /// Commits a one-chunk file (`seed`) claimed by `items` (nil: an older device, no claims).
    func commitFile(_ server: Harness, _ token: String, seed: UInt8, items: [String]?) async throws -> String {
        let part = Endpoints.chunk(seed)
        #expect(try await Endpoints().put(server, token, part.address, part.bytes).status == .noContent)
        let file = String(repeating: String(format: "%02x", seed), count: 32)
        let manifest = FileManifest(size: Int64(part.bytes.count), chunks: [part.address], items: items)
        #expect(try await Endpoints().commit(server, token, file, manifest).status == .noContent)
        return file
    }

    func held(_ server: Harness, _ token: String, _ file: String) async throws -> Bool {
        try await server.send(.get, AttachmentProtocol.filesPath + "/" + file, token: token).status == .ok
    }

    @Test(arguments: StoreKind.available)
    func aFileGoesOnceEveryItemThatClaimedItIsPurgedAndNeverBefore(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let ann = try await server.addUser("ann")
            var device = DeviceModel()
            let (trip, recipe, both1, both2, unsent) = (Make.id(), Make.id(), Make.id(), Make.id(), Make.id())
            try await server.round(
                &device, ann,
                ops: [
                    Make.create(trip, title: "Trip"), Make.create(recipe, title: "Recipe"),
                    Make.create(both1, title: "One"), Make.create(both2, title: "Two"),
                ])
            let tickets = try await commitFile(server, ann, seed: 1, items: [trip])
            let shared = try await commitFile(server, ann, seed: 2, items: [both1])
            #expect(try await commitFile(server, ann, seed: 2, items: [both2]) == shared, "a second claim")
            let legacy = try await commitFile(server, ann, seed: 3, items: nil)
            let waiting = try await commitFile(server, ann, seed: 4, items: [unsent])
            let pinnedLater = try await commitFile(server, ann, seed: 5, items: [recipe])
            _ = try await commitFile(server, ann, seed: 5, items: nil)
            try await server.round(
                &device, ann,
                ops: [
                    Make.delete(trip, baseRev: 1), Make.delete(both1, baseRev: 1), Make.delete(recipe, baseRev: 1),
                ])
            let metrics = ServerMetrics()

            // Within the retention the tombstones are still there: nothing goes.
            server.clock.advance(days: 10)
            try await purge(server, metrics: metrics)
            for file in [tickets, shared, legacy, waiting, pinnedLater] {
                #expect(try await held(server, ann, file), "nothing goes before the retention")
            }

            server.clock.advance(days: 31)
            try await purge(server, metrics: metrics)
            #expect(try await !held(server, ann, tickets), "its only item is gone for good")
            let chunk = Endpoints.chunk(1).address
            let gone = try await server.send(.get, AttachmentProtocol.chunksPath + "/" + chunk, token: ann)
            #expect(gone.status == .notFound, "its chunks went with it")
            #expect(try await held(server, ann, shared), "another item still claims it")
            #expect(try await held(server, ann, legacy), "committed without claims: kept for ever")
            #expect(try await held(server, ann, pinnedLater), "committed once without claims: kept for ever")
            // An item whose create never reached the server, claimed 41 days ago: a claim older
            // than the retention whose item is absent is dead (a device whose item is still
            // unsent claims it again after pushing it, and uploads what the server lacks).
            #expect(!(try await held(server, ann, waiting)), "a claim older than the retention, its item absent")
            #expect(metrics.text().contains("quire_files_purged_total 2"), "\(metrics.text())")

            // A restored server renews every claim: claims made after the backup are lost, and
            // devices make them again only once they have seen the new epoch.
            let fresh = try await commitFile(server, ann, seed: 6, items: [Make.id()])
            server.clock.advance(days: 31)
            _ = try await ServerAdmin(store: server.store, now: { server.clock.now() }).renewEpoch()
            server.clock.advance(days: 29)
            try await purge(server, metrics: metrics)
            #expect(try await held(server, ann, fresh), "the renewed epoch counts as a claim made then")
            server.clock.advance(days: 2)
            try await purge(server, metrics: metrics)
            #expect(try await !held(server, ann, fresh), "a retention after the renewal, with no item, it goes")
        }
    }

    @Test(arguments: StoreKind.available)
    func aCommitsClaimsAreCheckedAndOtherKeysRefused(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let ann = try await server.addUser("ann")
            let part = Endpoints.chunk(7)
            #expect(try await Endpoints().put(server, ann, part.address, part.bytes).status == .noContent)
            let file = String(repeating: "07", count: 32)
            for (body, why) in [
                (#"{"size": 1000, "chunks": ["\#(part.address)"], "items": ["not-an-id"]}"#, "an item id is a UUID"),
                (#"{"size": 1000, "chunks": ["\#(part.address)"], "claims": []}"#, "only 'items' is added"),
                (#"{"size": 1000, "chunks": ["\#(part.address)"], "items": null}"#, "'items' is a list or left out"),
            ] {
                let answer = try await server.send(
                    .put, AttachmentProtocol.filesPath + "/" + file, token: ann, body: Array(body.utf8))
                #expect(try server.failure(answer).0 == 400, "\(why)")
            }
            #expect(try await !held(server, ann, file), "a refused commit writes nothing")
        }
    }
}
