import Foundation
import QuireCore
import QuireProtocol
import QuireServer
import QuireStore
import Testing

@testable import QuireSync

/// Three devices edit offline what can be merged without asking (different fields, tag
/// additions and removals, body edits in different places) and sync in changing orders: they
/// end identical, with nothing needing review.
@Suite(.serialized) struct SyncConvergenceTests {
    func setUp(_ encryption: AccountEncryption) async throws -> (SyncTestServer, [Device]) {
        let (server, token) = try await SyncTestServer.running(user: "ann", encryption)
        return (server, (0..<3).map { Device("device \($0 + 1)", server: server, token: token) })
    }

    /// Syncs in the given order, pass after pass, until a whole pass changes nothing on any
    /// device and nothing waits to be sent. Returns the number of passes.
    @discardableResult
    func syncUntilQuiet(_ devices: [Device], orders: [[Int]], sourceLocation: SourceLocation = #_sourceLocation) async
        -> Int
    {
        for pass in 0..<12 {
            var changed = false
            for index in orders[pass % orders.count] {
                let device = devices[index]
                let before = device.snapshot
                let waiting = !device.storage.outbox.filter { $0.state != .rejected }.isEmpty
                let outcome = await device.sync()
                #expect(outcome == .caughtUp, "\(device.name): \(outcome)", sourceLocation: sourceLocation)
                if waiting || device.snapshot != before { changed = true }
            }
            if !changed { return pass + 1 }
        }
        Issue.record("the devices never went quiet", sourceLocation: sourceLocation)
        return 12
    }

    func expectConverged(_ devices: [Device], server: SyncTestServer, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        for device in devices.dropFirst() {
            #expect(
                device.holdsTheSameCopies(as: devices[0]), "\(device.name) equals \(devices[0].name)",
                sourceLocation: sourceLocation)
        }
        for device in devices {
            #expect(
                device.storage.conflicts.isEmpty, "\(device.name): nothing needs review", sourceLocation: sourceLocation
            )
            #expect(
                device.storage.outbox.isEmpty, "\(device.name): nothing left to send", sourceLocation: sourceLocation)
            #expect(
                device.storage.allItems.allSatisfy { $0.syncState == .synced }, "\(device.name): all synced",
                sourceLocation: sourceLocation)
            #expect(device.unreadable.isEmpty, "\(device.name) opens every item", sourceLocation: sourceLocation)
        }
        try server.expectNoContentLeaks(sourceLocation: sourceLocation)
    }

    @Test(arguments: AccountEncryption.allCases)
    func threeDevicesMergeFieldsTagsAndBodyLinesInAnyOrder(_ encryption: AccountEncryption) async throws {
        let (server, devices) = try await setUp(encryption)
        defer { Task { await server.stop() } }
        let (a, b, c) = (devices[0], devices[1], devices[2])
        let body = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n"
        let plan = a.create("Plan", body: body, kind: .task, tags: ["home", "work"])
        let list = b.create("List", body: "milk\n", tags: ["shop"])
        await syncUntilQuiet(devices, orders: [[0, 1, 2]])

        // Offline, all three change the same two items.
        try a.update(plan, [.title: .string("Plan the move"), .tags: .strings(["home", "work", "urgent"])])
        try a.update(plan, [.body: .string("ONE\ntwo\nthree\nfour\nfive\nsix\nseven\n")])
        try a.update(list, [.pinned: .bool(true)])
        try b.update(plan, [.due: .string("2026-12-01"), .tags: .strings(["home"])])
        try b.update(plan, [.body: .string("one\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n")])
        try b.update(list, [.tags: .strings(["shop", "weekly"])])
        try c.update(plan, [.priority: .string("high"), .done: .bool(true)])
        try c.update(
            plan,
            [
                .tags: .strings(["home", "work", "later"]),
                .body: .string("one\ntwo\nthree\nfour\nthree and a half\nfive\nsix\nseven\n"),
            ])
        try c.update(list, [.title: .string("Shopping list"), .tags: .strings([])])

        let passes = await syncUntilQuiet(devices, orders: [[2, 0, 1], [1, 2, 0], [0, 2, 1]])
        #expect(passes <= 4)
        try expectConverged(devices, server: server)
        let merged = try #require(b.item(plan))
        #expect(merged.title == "Plan the move")
        #expect(merged.due == Day("2026-12-01"))
        #expect(merged.priority == .high)
        #expect(merged.done == true)
        #expect(merged.tags == ["home", "later", "urgent"], "a's and c's additions, b's removal")
        #expect(merged.body == "ONE\ntwo\nthree\nfour\nthree and a half\nfive\nsix\nSEVEN\n")
        let shopping = try #require(a.item(list))
        #expect(shopping.title == "Shopping list")
        #expect(shopping.pinned == true)
        #expect(shopping.tags == ["weekly"], "c removed shop, b added weekly")
        #expect(devices.contains { $0.storage.events.contains { $0.kind == .merged } })
        #expect(!devices.contains { $0.storage.events.contains { $0.kind == .conflict } })
    }

    /// What each device may change on a shared item, so that no two devices ever set the same
    /// field: whatever the order, the merge never has to ask.
    struct Ownership {
        let device: Int
        /// The body line this device writes (0, 2 or 4 of 5: apart, so edits never overlap).
        var bodyLine: Int { device * 2 }
        var tagNames: [String] { (0..<3).map { "d\(device)-t\($0)" } }
    }

    /// The expected end state of a shared item, as its field owners last wrote it.
    struct SharedModel {
        var title: String
        var priority: String = "none"
        var due: String?
        var pinned = false
        var done = false
        var lines = ["line 0", "between 0 and 2", "line 2", "between 2 and 4", "line 4"]
        var tags: [Int: Set<String>] = [:]

        var body: String { lines.joined(separator: "\n") + "\n" }
    }

    @Test(arguments: [UInt64(20_261_122), 7, 424_242], AccountEncryption.allCases)
    func randomOfflineEditsAndSyncOrdersConverge(seed: UInt64, _ encryption: AccountEncryption) async throws {
        let (server, devices) = try await setUp(encryption)
        defer { Task { await server.stop() } }
        var random = SeededRandom(seed: seed)
        var shared: [String: SharedModel] = [:]
        for index in 0..<4 {
            let model = SharedModel(title: "Shared \(index)")
            shared[devices[index % 3].create(model.title, body: model.body, kind: .task)] = model
        }
        await syncUntilQuiet(devices, orders: [[0, 1, 2]])
        /// Items only their creator changes (and may delete); live ones per device.
        var own: [[String]] = [[], [], []]
        var deleted: Set<String> = []

        for round in 0..<50 {
            let d = Int.random(in: 0..<3, using: &random)
            let device = devices[d]
            let owner = Ownership(device: d)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let id = shared.keys.sorted().randomElement(using: &random)!
                let current = try #require(device.item(id))
                switch Int.random(in: 0..<6, using: &random) {
                case 0:  // a field only this device sets
                    switch d {
                    case 0:
                        shared[id]!.title = "title \(round)"
                        shared[id]!.priority = ["low", "medium", "high", "none"].randomElement(using: &random)!
                        try device.update(
                            id, [.title: .string(shared[id]!.title), .priority: .string(shared[id]!.priority)])
                    case 1:
                        shared[id]!.due = String(format: "2026-%02d-%02d", round % 12 + 1, round % 28 + 1)
                        shared[id]!.pinned.toggle()
                        try device.update(id, [.due: .string(shared[id]!.due!), .pinned: .bool(shared[id]!.pinned)])
                    default:
                        shared[id]!.done.toggle()
                        try device.update(id, [.done: .bool(shared[id]!.done)])
                    }
                case 1, 2:  // this device's line of the body
                    var lines = current.body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                    if lines.last == "" { lines.removeLast() }
                    let text = "line \(owner.bodyLine) by \(d) in round \(round)"
                    lines[owner.bodyLine] = text
                    shared[id]!.lines[owner.bodyLine] = text
                    try device.update(id, [.body: .string(lines.joined(separator: "\n") + "\n")])
                case 3, 4:  // add or remove one of this device's tags
                    let tag = owner.tagNames.randomElement(using: &random)!
                    var tags = Set(current.tags)
                    var mine = shared[id]!.tags[d, default: []]
                    if tags.contains(tag) {
                        tags.remove(tag)
                        mine.remove(tag)
                    } else {
                        tags.insert(tag)
                        mine.insert(tag)
                    }
                    shared[id]!.tags[d] = mine
                    try device.update(id, [.tags: .strings(tags.sorted())])
                default:  // an item of its own: create, edit or delete
                    if let mine = own[d].randomElement(using: &random), Bool.random(using: &random) {
                        if Bool.random(using: &random) {
                            try device.delete(mine)
                            own[d].removeAll { $0 == mine }
                            deleted.insert(mine)
                        } else {
                            try device.update(
                                mine,
                                [
                                    .title: .string("own \(d) edited in \(round)"),
                                    .body: .string("text \(round)\n"),
                                ])
                        }
                    } else {
                        own[d].append(device.create("own \(d) from round \(round)", tags: owner.tagNames))
                    }
                }
            }
            // Some devices come online, in a random order; some answers get lost on the way.
            for index in (0..<3).shuffled(using: &random) where Bool.random(using: &random) {
                let dropped = Int.random(in: 0..<8, using: &random) == 0
                if dropped { devices[index].transport.fail(.dropAnswer) }
                let outcome = await devices[index].sync()
                if dropped {
                    #expect(outcome == .networkError("the connection was closed"), "seed \(seed), round \(round)")
                } else {
                    #expect(outcome == .caughtUp, "seed \(seed), round \(round): \(outcome)")
                }
            }
        }

        let orders = (0..<4).map { _ in (0..<3).shuffled(using: &random) }
        await syncUntilQuiet(devices, orders: orders)
        try expectConverged(devices, server: server)
        for (id, model) in shared {
            let item = try #require(devices[0].item(id))
            #expect(item.title == model.title, "seed \(seed)")
            #expect(item.priority.rawValue == model.priority, "seed \(seed)")
            #expect(item.due?.description == model.due, "seed \(seed)")
            #expect(item.pinned == model.pinned, "seed \(seed)")
            #expect(item.done == model.done, "seed \(seed)")
            #expect(item.body == model.body, "seed \(seed)")
            #expect(Set(item.tags) == model.tags.values.reduce(Set<String>()) { $0.union($1) }, "seed \(seed)")
        }
        for id in deleted {
            // A device that never had the item holds nothing of it (a tombstone carries no content).
            #expect(devices.allSatisfy { $0.item(id)?.deleted != false }, "seed \(seed): live nowhere")
            #expect(devices.contains { $0.item(id)?.deleted == true }, "seed \(seed): its tombstone kept where it was")
        }
        for id in own.joined() {
            #expect(devices.allSatisfy { $0.item(id)?.deleted == false }, "seed \(seed): created everywhere")
        }
    }
}
