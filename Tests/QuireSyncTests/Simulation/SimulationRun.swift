import Foundation
import GRDB
import QuireCore
import QuireProtocol
import QuireStore

@testable import QuireSync

/// One seeded run: a workload of edits of every kind on shared and private items with faults,
/// then healing (no faults, every device syncs until nothing moves, conflicts resolved keeping
/// both sides), then the checks against what the workload did.
///
/// The checks: no line a device appended is lost or duplicated (unless its item ends deleted),
/// every tag added is there, every device and the server hold the same items byte for byte
/// (fields, revision, times, server version), nothing waits in an outbox, no item that only
/// one device ever edited needed review, and `PRAGMA integrity_check` is ok everywhere.
struct SimulationRun {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What the workload knows about an item.
    struct Tracked {
        /// The only device that ever edits it, for a private item; nil for a shared one.
        var owner: Int?
        var lines: [String] = []
        var tags: [String] = []
        /// Some device deleted it at some point: a delete takes with it the lines its device
        /// held (its own unsent ones too), so only duplicates are checked for such an item.
        var everDeleted = false
        /// The devices that ever changed it (made, edited, deleted, restored it or settled a
        /// review of it): any other device asked to review it is a spurious conflict.
        var editors: Set<Int> = []
    }

    let seed: UInt64
    let steps: Int
    let faults: SimulatedSystem.Faults

    /// Every step on standard output, with `QUIRE_SIM_TRACE=1` (for replaying one seed).
    static let tracing = ProcessInfo.processInfo.environment["QUIRE_SIM_TRACE"] == "1"

    func trace(_ text: @autoclosure () -> String) {
        if SimulationRun.tracing { print("sim \(seed): \(text())") }
    }

    /// The command that replays this run alone.
    var replay: String { "QUIRE_SIM_SEED=\(seed) swift test --filter SimulationTests" }

    func run() async throws -> SimulatedSystem.Tally {
        let system = try await SimulatedSystem(seed: seed, devices: 2 + Int(seed % 2), faults: faults)
        var tracked: [String: Tracked] = [:]
        var token = 0
        func next() -> String {
            token += 1
            return "s\(seed)-\(token)"
        }

        for _ in 0..<steps {
            system.tick()
            let index = system.pick(system.devices.count)
            let device = system.devices[index]
            let roll = system.pick(100)
            let ids = tracked.keys.sorted().filter { tracked[$0]!.owner == nil || tracked[$0]!.owner == index }
            let id = ids.isEmpty ? nil : ids[system.pick(ids.count)]
            system.tally.ops += 1
            switch roll {
            case 0..<14:
                let shared = system.chance(0.5)
                let item = try device.database.create(
                    NewItem(kind: system.chance(0.5) ? .task : .note, title: "item \(next())"))
                tracked[item.id] = Tracked(owner: shared ? nil : index, editors: [index])
                trace("\(device.name) creates \(item.id.suffix(6)) \(shared ? "shared" : "private")")
            case 14..<46:
                guard let id, let item = try device.database.item(id), !item.deleted else { continue }
                let line = next()
                _ = try device.database.update(id, fields: [.body: .string(item.body + line + "\n")])
                tracked[id]!.lines.append(line)
                tracked[id]!.editors.insert(index)
                trace("\(device.name) appends \(line) to \(id.suffix(6))")
            case 46..<54:
                guard let id, let item = try device.database.item(id), !item.deleted else { continue }
                let tag = "t" + next()
                _ = try device.database.update(id, fields: [.tags: .strings(item.tags + [tag])])
                tracked[id]!.tags.append(tag)
                tracked[id]!.editors.insert(index)
                trace("\(device.name) tags \(id.suffix(6)) \(tag)")
            case 54..<58:
                guard let id, let item = try device.database.item(id), !item.deleted else { continue }
                _ = try device.database.update(id, fields: [.title: .string("title \(next())")])
                tracked[id]!.editors.insert(index)
                trace("\(device.name) retitles \(id.suffix(6))")
            case 58..<62:
                guard let id, let item = try device.database.item(id), !item.deleted, item.kind == .task else {
                    continue
                }
                _ = try device.database.setDone([id], !item.done)
                tracked[id]!.editors.insert(index)
                trace("\(device.name) toggles done of \(id.suffix(6))")
            case 62..<65:
                guard let id, let item = try device.database.item(id), !item.deleted else { continue }
                _ = try device.database.delete([id])
                tracked[id]!.everDeleted = true
                tracked[id]!.editors.insert(index)
                trace("\(device.name) deletes \(id.suffix(6))")
            case 65..<67:
                guard let id, let item = try device.database.item(id), item.deleted else { continue }
                _ = try device.database.restore([id])
                tracked[id]!.editors.insert(index)
                trace("\(device.name) restores \(id.suffix(6))")
            case 67..<70:
                try resolveAll(device, index: index, tracked: &tracked)
            default:
                _ = try await sync(device)
                try countSpurious(device, index: index, system: system, tracked: tracked)
            }
            try await injectFaults(system)
        }

        try await heal(system, tracked: &tracked)
        try await check(system, tracked: tracked)
        return system.tally
    }

    /// One sync of a device, traced with the events it logged.
    private func sync(_ device: SimulatedSystem.Device, healing: Bool = false) async throws -> SyncMachine.RoundOutcome
    {
        let outcome = await device.engine.runToCompletion(waitingForLock: 0)
        trace("\(device.name) syncs\(healing ? " (healing)" : ""): \(outcome)")
        if SimulationRun.tracing {
            let seen = device.tracedEvents
            for event in try device.database.recentSyncEvents(limit: 50).reversed()
            where event.kind != .syncStart && event.seq > seen {
                device.tracedEvents = max(device.tracedEvents, event.seq)
                trace("   \(event.kind.rawValue) \(event.itemID.map { String($0.suffix(6)) } ?? "") \(event.message)")
            }
        }
        return outcome
    }

    private func injectFaults(_ system: SimulatedSystem) async throws {
        let faults = system.faults
        if system.chance(faults.backup) {
            try system.backUpServer()
            trace("server backed up")
        }
        if system.chance(faults.restore) {
            try await system.restoreServer()
            trace("server restored from a backup, epoch renewed")
            // The device that syncs first after it may not be the first to push.
            if system.chance(0.5) {
                let unlucky = system.devices[system.pick(system.devices.count)]
                unlucky.pushFailsOnce = true
                trace("\(unlucky.name)'s next push will fail once")
            }
        }
        if system.chance(faults.serverRestart) {
            try await system.restartServer()
            trace("server restarted")
        }
        for device in system.devices {
            if system.chance(faults.deviceCrash) {
                try system.crash(device)
                trace("\(device.name) crashed")
            }
            if system.chance(faults.offline) {
                device.online.toggle()
                if !device.online { system.tally.fault("offline") }
            }
            if system.chance(faults.tokenRevoked) {
                device.signedOut.toggle()
                if device.signedOut { system.tally.fault("token revoked") }
            }
        }
    }

    /// Settles every item that needs review on the device, keeping both sides: a change of
    /// the device's own from then on.
    private func resolveAll(_ device: SimulatedSystem.Device, index: Int, tracked: inout [String: Tracked]) throws {
        for record in try device.database.conflicts() {
            _ = try device.engine.ledger.resolve(record.itemID, keeping: .both)
            tracked[record.itemID]?.editors.insert(index)
        }
    }

    /// Counts the items the device is asked to review that it never changed, or that only one
    /// device ever changed: a review a person could only answer with "I did not do that".
    private func countSpurious(
        _ device: SimulatedSystem.Device, index: Int, system: SimulatedSystem, tracked: [String: Tracked]
    ) throws {
        for record in try device.database.conflicts() {
            guard let item = tracked[record.itemID] else { continue }
            if item.owner != nil || !item.editors.contains(index) {
                system.tally.spuriousConflicts += 1
                trace("\(device.name) is asked to review \(record.itemID.suffix(6)), which it never changed")
            }
        }
    }

    /// Faults off; every device syncs, in turn, until a whole pass changes nothing.
    private func heal(_ system: SimulatedSystem, tracked: inout [String: Tracked]) async throws {
        system.faults = .none
        for device in system.devices {
            device.online = true
            device.signedOut = false
            device.pushFailsOnce = false
        }
        for _ in 0..<30 {
            var moved = false
            for (index, device) in system.devices.enumerated() {
                system.tick()
                let before = try snapshot(device)
                let outcome = try await sync(device, healing: true)
                guard outcome == .caughtUp else {
                    throw Failure(description: "\(device.name) did not catch up while healing: \(outcome)")
                }
                try countSpurious(device, index: index, system: system, tracked: tracked)
                try resolveAll(device, index: index, tracked: &tracked)
                if try snapshot(device) != before { moved = true }
            }
            if !moved { return }
        }
        throw Failure(description: "the devices never went quiet")
    }

    /// A device's items (with tombstones), outbox and conflicts, as wire text.
    private func snapshot(_ device: SimulatedSystem.Device) throws -> [String: String] {
        try device.database.syncStorage().read { tx in
            var result: [String: String] = [:]
            for local in try tx.items(idAfter: nil, through: nil) {
                let item = local.item.map { ChangeItem($0).compactJSON() } ?? "-"
                result[local.id] = item + " ops \(local.ops.count) conflict \(local.conflict != nil)"
            }
            return result
        }
    }

    private func check(_ system: SimulatedSystem, tracked: [String: Tracked]) async throws {
        var problems: [String] = []
        let server = try await system.serverItems()
        for device in system.devices {
            // An item made and deleted before it ever synced stays a tombstone on its device only.
            let locals = try device.database.syncStorage().read { tx in try tx.items(idAfter: nil, through: nil) }
                .filter { !($0.item.map { $0.rev == 0 && $0.deleted } ?? true) || !$0.ops.isEmpty }
            for local in locals {
                guard let item = local.item else { continue }
                if !local.ops.isEmpty {
                    problems.append("\(device.name): \(local.id) still has \(local.ops.count) ops")
                }
                if local.conflict != nil { problems.append("\(device.name): \(local.id) still needs review") }
                guard let remote = server[local.id] else {
                    problems.append("\(device.name): \(local.id) is not on the server")
                    continue
                }
                let mine = ChangeItem(item).compactJSON()
                if mine != remote.compactJSON() {
                    problems.append("\(device.name): \(local.id) differs: \(mine) vs server \(remote.compactJSON())")
                }
            }
            if locals.count != server.count {
                problems.append("\(device.name) holds \(locals.count) items, the server \(server.count)")
            }
            let (integrity, talliesAgree) = try await DatabaseQueue(path: device.path).read { db in
                (
                    try String.fetchOne(db, sql: "PRAGMA integrity_check"),
                    try Bool.fetchOne(db, sql: AppDatabase.talliesAgreeSQL)
                )
            }
            if integrity != "ok" { problems.append("\(device.name): integrity_check says \(integrity ?? "nothing")") }
            if talliesAgree != true { problems.append("\(device.name): the item or outbox tallies are out of step") }
        }
        for (id, item) in tracked {
            guard let final = server[id] else {
                if !item.everDeleted { problems.append("\(id) was lost from the server") }
                continue
            }
            let lines = final.body.split(separator: "\n").map(String.init)
            let mustKeep = !final.deleted && !item.everDeleted
            for line in item.lines {
                let count = lines.count(where: { $0 == line })
                if count > 1 { problems.append("\(id): line \(line) is there \(count) times") }
                if count == 0 && mustKeep { problems.append("\(id): line \(line) was lost") }
            }
            for tag in item.tags where mustKeep && !final.tags.contains(tag) {
                problems.append("\(id): tag \(tag) was lost")
            }
        }
        if system.tally.spuriousConflicts > 0 {
            problems.append("\(system.tally.spuriousConflicts) reviews asked of a device that never changed the item")
        }
        if !problems.isEmpty, SimulationRun.tracing {
            for (id, _) in tracked {
                for device in system.devices {
                    for version in try device.database.history(of: id).reversed() {
                        trace(
                            "history \(device.name) \(id.suffix(6)) \(version.origin.rawValue) rev \(version.item.rev) "
                                + "at \(version.item.updatedAt.timeIntervalSince1970.truncatingRemainder(dividingBy: 1000)) "
                                + "\(version.item.serverVersion?.description ?? "-") deleted \(version.item.deleted) "
                                + version.item.body.replacingOccurrences(of: "\n", with: "|"))
                    }
                }
            }
        }
        if !problems.isEmpty {
            throw Failure(
                description: "seed \(seed): \(problems.count) problems (replay: \(replay)):\n"
                    + problems.prefix(12).joined(separator: "\n"))
        }
    }
}
