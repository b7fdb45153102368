import Foundation
import QuireCore
import QuireProtocol
import Testing

@testable import QuireServer

/// SPEC "Isolation": a token sees and writes only its own user's items.
@Suite struct IsolationTests {
    @Test(arguments: StoreKind.available)
    func userATokenNeverSeesOrTouchesUserBData(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let ann = try await server.addUser("ann")
            let bob = try await server.addUser("bob")
            var annDevice = DeviceModel()
            var bobDevice = DeviceModel()
            let secret = Make.id()
            try await server.round(
                &annDevice, ann, ops: [Make.create(secret, title: "ann's secret", [.body: .string("private")])])

            // Bob's feed and snapshot are empty.
            let pulled = try await server.round(&bobDevice, bob)
            #expect(pulled.changes.isEmpty)
            #expect(pulled.stateHash == StateHash().hex)
            #expect(try await server.snapshot(bob).items.isEmpty)

            // Ann's item id behaves for Bob exactly as an id nobody has: same answer shape and reason.
            let unknown = Make.id()
            let probes = try await server.round(
                &bobDevice, bob,
                ops: [
                    Make.update(secret, baseRev: 1, [.title: (.string("ann's secret"), .string("mine"))]),
                    Make.update(unknown, baseRev: 1, [.title: (.string("ann's secret"), .string("mine"))]),
                    Make.delete(secret, baseRev: 1),
                    Make.delete(unknown, baseRev: 1),
                ])
            #expect(probes.results.map(\.status) == [.rejected, .rejected, .rejected, .rejected])
            #expect(
                probes.results[0].reason?.replacingOccurrences(of: secret, with: "ID")
                    == probes.results[1].reason?.replacingOccurrences(of: unknown, with: "ID"))
            #expect(probes.results.allSatisfy { $0.current == nil })

            // Bob may even use the same id for an item of his own; the two never meet.
            let own = try await server.round(&bobDevice, bob, ops: [Make.create(secret, title: "bob's item")])
            #expect(own.results.first?.status == .applied)
            #expect(own.results.first?.rev == 1)

            // Op ids are per user too: Bob replaying Ann's op id gets his own answer, not hers.
            try await server.round(&annDevice, ann)
            #expect(annDevice.items[secret]?.title == "ann's secret")
            #expect(annDevice.items[secret]?.rev == 1)
            #expect(try await server.snapshot(ann).items.map(\.title) == ["ann's secret"])
            #expect(try await server.snapshot(bob).items.map(\.title) == ["bob's item"])
        }
    }

    @Test(arguments: StoreKind.available)
    func opIdsAreRememberedPerUser(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let ann = try await server.addUser("ann")
            let bob = try await server.addUser("bob")
            let opID = Make.id()
            let annAnswer = try await server.sync(
                ann, SyncRequest(device: Make.id(), cursor: nil, ops: [Make.create(Make.id(), title: "a", op: opID)]))
            let bobAnswer = try await server.sync(
                bob,
                SyncRequest(
                    device: Make.id(), cursor: nil,
                    ops: [Make.update(Make.id(), baseRev: 3, [.title: (.string("a"), .string("b"))], op: opID)]))
            #expect(annAnswer.results.first?.status == .applied)
            #expect(bobAnswer.results.first?.status == .rejected)
        }
    }
}
