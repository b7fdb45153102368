import Foundation
import GRDB
import QuireCore
import QuireProtocol
import QuireStore

@testable import QuireSync

/// One seeded run: a workload of edits of every kind on a few shared and private items with
/// faults aimed at server restores, then healing (no faults, every device syncs until nothing
/// moves, conflicts resolved keeping both sides), then the checks against what the workload did.
///
/// A private item has one editor; the other devices only pull it. Its reference model is the
/// item as that editor last wrote it (`Tracked.model`), kept by the workload from what it wrote
/// and never from what a device holds: every change the editor made is acknowledged by the end
/// of healing, so the server and every device must hold exactly that item — its body, title,
/// tags and done, deleted (with the content it had) where the last change was a delete — and no
/// device may have been asked to review it.
///
/// The other checks: no line a device appended to a shared item is lost or duplicated (unless
/// the item ends deleted), every tag added is there, every device and the server hold the same
/// items byte for byte (fields, revision, times, server version), nothing waits in an outbox,
/// no device was asked to review an item it never changed, and `PRAGMA integrity_check` is ok
/// everywhere.
struct SimulationRun {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The fields of a private item as its one editor last wrote them.
    struct Model: Equatable, CustomStringConvertible {
        var title: String
        var body: String
        var tags: [String]
        var done: Bool
        var deleted: Bool
        /// Set with each new title (the same op), so the field travels every path a title does.
        var project: String?
        /// Set with each new title too, as projects are.
        var wait: Day?
        var scheduled: Day?
        /// How many changes its editor made: each must be in the final item.
        var changes = 1

        /// A deleted item matches any tombstone: the server keeps no content of one (SPEC), and
        /// each device keeps the text its own copy had.
        func matches(_ item: ChangeItem) -> Bool {
            if deleted { return item.deleted }
            return item.title == title && item.body == body && item.tags == tags && item.done == done
                && item.deleted == deleted && item.project == project && item.wait == wait
                && item.scheduled == scheduled
        }

        /// What the item holds of the fields the model keeps.
        init(_ item: ChangeItem) {
            self.init(
                title: item.title, body: item.body, tags: item.tags, done: item.done, deleted: item.deleted,
                project: item.project)
            (wait, scheduled) = (item.wait, item.scheduled)
        }

        init(
            title: String, body: String, tags: [String] = [], done: Bool = false, deleted: Bool = false,
            project: String? = nil
        ) {
            (self.title, self.body, self.tags, self.done, self.deleted) = (title, body, tags, done, deleted)
            self.project = project
        }

        var description: String {
            "\(deleted ? "deleted " : "")\(done ? "done " : "")\(title) [\(tags.joined(separator: ","))] "
                + (project.map { "(\($0)) " } ?? "") + body.replacingOccurrences(of: "\n", with: "|")
        }
    }

    /// What the workload knows about an item.
    struct Tracked {
        /// The only device that ever edits it, for a private item; nil for a shared one.
        var owner: Int?
        /// For a private item: what the server and every device must end with.
        var model: Model?
        var lines: [String] = []
        var tags: [String] = []
        /// Some device deleted it at some point: a delete takes with it the lines its device
        /// held (its own unsent ones too), so only duplicates are checked for such a shared item.
        var everDeleted = false
        /// The devices that ever changed it (made, edited, deleted, restored it or settled a
        /// review of it): any other device asked to review it is a spurious conflict.
        var editors: Set<Int> = []
    }

    let seed: UInt64
    let steps: Int
    let faults: SimulatedSystem.Faults

    /// Seeds that failed on the code before the restore fixes (issue 28) and pass now, by the
    /// shape they took: an acknowledged change of the author lost after a restore while its
    /// push failed once, the author asked to review (386); an acknowledged delete lost or
    /// re-sent without its content by a restore (44, 57, 76, 89, 96, 164, 197; 129 also with a
    /// false review); a device that never edited an item asked to review it after its author's
    /// answers were lost around a restore (106, 421); and a revival from the trash that lost
    /// what was deleted or edits made after it (102, 176, 190, 473, 508; 125 and 158 also
    /// failed after those fixes: a revival whose delete's answer was lost merged over a base
    /// holding its own edits). Later fixes: a re-sent version never stamped in its device's
    /// history, so a second restore found too old a base and asked to review a delete (605);
    /// a delete queued behind changes whose answer was lost, refused when they were replayed
    /// with it (868, 2157); a tombstone brought back, edited and
    /// deleted again, merged away by the server's older tombstone (1058 after several
    /// restores, 1914, 2306); the author asked to review its own change, merged over a version
    /// older than the server's copy it had merged with before a second restore (2141); the
    /// issue's C-create shape, the author asked to review its own lines because the version
    /// another device re-sent was never stamped in its history (its op applied on top of the
    /// author's earlier op, answered with the whole item: 4134). Two guard a rule tried and
    /// dropped (a version the unsent changes rest on with the server's content taken as the
    /// base over the stamps): a device re-sending a tombstone merged its delete over the live
    /// copy its re-send made, not the tombstone both held, and deleted the author's revival
    /// (1449, 4633). A review that met a restore: the restored server's older copy replaced
    /// the server side of the review, and the settled review (or the next merge, over that
    /// side's version from the history) took its lines out (1130, 1781, 2258, 2449); an item
    /// in review that the restore lost entirely, whose tombstone was built from the device's
    /// copy with its unsent lines, so the revival that settled the review merged them away
    /// (5016, 5687); a revival the restored server had the content of, not named by its
    /// author's re-send, so after a second restore another device re-sent the delete it
    /// revived over it (1258); an author that deleted its item and never heard the answer, then
    /// took it back out of the trash: the server's tombstone was its own delete, but without
    /// its stamp the merge rested on the older live version both held, and the server's
    /// delete undid the revival (755). `make test` always runs them.
    static let regressionSeeds: [UInt64] = [
        44, 57, 76, 89, 96, 102, 106, 125, 129, 158, 164, 176, 190, 197, 386, 421, 473, 508, 605, 755, 868, 1058, 1130,
        1258, 1449, 1781, 1914, 2141, 2157, 2258, 2306, 2449, 4134, 4633, 5016, 5687,
    ]

    /// Steps of workload per seed, before healing.
    static let steps = 48

    /// At most this many items: few items, so the faults and syncs land on the same ones.
    static let maxItems = 4

    /// Every step on standard output, with `QUIRE_SIM_TRACE=1` (for replaying one seed).
    static let tracing = ProcessInfo.processInfo.environment["QUIRE_SIM_TRACE"] == "1"

    func trace(_ text: @autoclosure () -> String) {
        if SimulationRun.tracing { print("sim \(seed): \(text())") }
    }

    /// The command that replays this run alone.
    var replay: String { "QUIRE_SIM_SEED=\(seed) swift test --filter SimulationTests" }

    func run() async throws -> SimulatedSystem.Tally {
        // Two devices mostly: the shapes a restore breaks need one author and one reader.
        let system = try await SimulatedSystem(seed: seed, devices: seed % 4 == 3 ? 3 : 2, faults: faults)
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
            case 0..<8:
                guard tracked.count < SimulationRun.maxItems else { continue }
                let shared = system.chance(0.25)
                let new = NewItem(
                    kind: system.chance(0.5) ? .task : .note, title: "item \(next())", body: next() + "\n")
                let item = try device.database.create(new)
                tracked[item.id] = Tracked(
                    owner: shared ? nil : index, model: shared ? nil : Model(title: item.title, body: item.body),
                    lines: [String(new.body.dropLast())], editors: [index])
                trace("\(device.name) creates \(item.id.suffix(6)) \(shared ? "shared" : "private")")
            case 8..<58 where id.flatMap({ tracked[$0]?.model }) != nil:
                try editPrivate(id!, roll: roll, device: device, tracked: &tracked[id!]!, token: next())
            case 8..<36:
                guard let id, let item = try device.database.item(id), !item.deleted else { continue }
                let line = next()
                _ = try device.database.update(id, fields: [.body: .string(item.body + line + "\n")])
                tracked[id]!.lines.append(line)
                tracked[id]!.editors.insert(index)
                trace("\(device.name) appends \(line) to \(id.suffix(6))")
            case 36..<40:
                guard let id, let item = try device.database.item(id), !item.deleted else { continue }
                let tag = "t" + next()
                _ = try device.database.update(id, fields: [.tags: .strings(item.tags + [tag])])
                tracked[id]!.tags.append(tag)
                tracked[id]!.editors.insert(index)
                trace("\(device.name) tags \(id.suffix(6)) \(tag)")
            case 40..<42:
                guard let id, let item = try device.database.item(id), !item.deleted else { continue }
                let token = next()
                _ = try device.database.update(id, fields: Self.retitle(token))
                tracked[id]!.editors.insert(index)
                trace("\(device.name) retitles \(id.suffix(6))")
            case 42..<47:
                guard let id, let item = try device.database.item(id), !item.deleted, item.kind == .task else {
                    continue
                }
                _ = try device.database.setDone([id], !item.done)
                tracked[id]!.editors.insert(index)
                trace("\(device.name) toggles done of \(id.suffix(6))")
            case 47..<53:
                guard let id, let item = try device.database.item(id), !item.deleted else { continue }
                _ = try device.database.delete([id])
                tracked[id]!.everDeleted = true
                tracked[id]!.editors.insert(index)
                trace("\(device.name) deletes \(id.suffix(6))")
            case 53..<58:
                guard let id, let item = try device.database.item(id), item.deleted else { continue }
                _ = try device.database.restore([id])
                tracked[id]!.editors.insert(index)
                trace("\(device.name) restores \(id.suffix(6))")
            case 58..<60:
                try resolveAll(device, index: index, tracked: &tracked)
            default:
                _ = try await sync(device)
                try countSpurious(device, index: index, system: system, tracked: tracked)
            }
            try await injectFaults(system, tracked: tracked)
        }

        try await heal(system, tracked: &tracked)
        try await check(system, tracked: tracked)
        return system.tally
    }

    /// What a retitle writes in one op: the title with a project, a wait and a scheduled date,
    /// so that those fields travel every path a title does.
    static func retitle(_ token: String) -> [Field: FieldValue] {
        let (wait, scheduled) = dates(for: token)
        return [
            .title: .string("title \(token)"), .project: .string(project(for: token)), .wait: FieldValue.text(wait),
            .scheduled: FieldValue.text(scheduled),
        ]
    }

    /// The wait and scheduled days a retitle sets: a day of December 2026 from the token, or
    /// none (cleared) for one token in four.
    static func dates(for token: String) -> (Day?, Day?) {
        let sum = token.utf8.reduce(0) { $0 + Int($1) }
        guard sum % 4 != 0 else { return (nil, nil) }
        return (Day(year: 2026, month: 12, day: sum % 28 + 1), Day(year: 2026, month: 12, day: (sum / 3) % 28 + 1))
    }

    /// The project a retitle sets with its title: a sub-project of `Home` or of `home` by turns.
    static func project(for token: String) -> String {
        (token.utf8.last.map { $0 % 2 == 0 } ?? true ? "Home.p" : "home.p") + token
    }

    /// One change of a private item by its editor, written from the model (not from what the
    /// device holds, which a bug may have changed under it), and the model moved on with it.
    /// A step that does not fit the item's state (an edit of a deleted item) does nothing.
    private func editPrivate(
        _ id: String, roll: Int, device: SimulatedSystem.Device, tracked: inout Tracked, token: String
    ) throws {
        guard var model = tracked.model, let item = try device.database.item(id), item.deleted == model.deleted else {
            return
        }
        switch roll {
        case 8..<36 where !model.deleted:
            model.body += token + "\n"
            _ = try device.database.update(id, fields: [.body: .string(model.body)])
            trace("\(device.name) appends \(token) to \(id.suffix(6))")
        case 36..<40 where !model.deleted:
            model.tags = Tags.normalize(model.tags + ["t" + token])
            _ = try device.database.update(id, fields: [.tags: .strings(model.tags)])
            trace("\(device.name) tags \(id.suffix(6)) t\(token)")
        case 40..<42 where !model.deleted:
            model.title = "title \(token)"
            model.project = Self.project(for: token)
            (model.wait, model.scheduled) = Self.dates(for: token)
            _ = try device.database.update(id, fields: Self.retitle(token))
            trace("\(device.name) retitles \(id.suffix(6))")
        case 42..<47 where !model.deleted && item.kind == .task:
            model.done.toggle()
            _ = try device.database.setDone([id], model.done)
            trace("\(device.name) marks \(id.suffix(6)) \(model.done ? "done" : "open")")
        case 47..<53 where !model.deleted:
            model.deleted = true
            _ = try device.database.delete([id])
            trace("\(device.name) deletes \(id.suffix(6))")
        case 53..<58 where model.deleted:
            // Restore from trash: the item comes back as its editor deleted it.
            model.deleted = false
            _ = try device.database.restore([id])
            trace("\(device.name) restores \(id.suffix(6)) from the trash")
        default:
            return
        }
        model.changes += 1
        tracked.model = model
    }

    /// One sync of a device, traced with the events it logged.
    func sync(_ device: SimulatedSystem.Device, healing: Bool = false) async throws -> SyncMachine.RoundOutcome {
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

    func injectFaults(_ system: SimulatedSystem, tracked: [String: Tracked]) async throws {
        let faults = system.faults
        if system.chance(faults.backup) {
            try system.backUpServer()
            trace("server backed up")
        }
        if system.chance(faults.restore) {
            try await system.restoreServer()
            trace("server restored from a backup, epoch renewed")
            // The device that syncs first after it may not be the first to push.
            if system.chance(faults.pushFailsAfterRestore) {
                let index = system.pick(system.devices.count)
                let unlucky = system.devices[index]
                unlucky.pushFailsOnce = true
                trace("\(unlucky.name)'s next push will fail once")
                try await countLostCreates(author: index, system: system, tracked: tracked)
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

    /// Counts the issue's C-create shape: the restored backup was taken before an item was
    /// made, its author's copy was acknowledged and another device holds it, and the author's
    /// next push fails once (so the other device re-sends it first).
    private func countLostCreates(author: Int, system: SimulatedSystem, tracked: [String: Tracked]) async throws {
        let server = try await system.serverItems()
        for (id, item) in tracked where item.owner == author && server[id] == nil {
            let holders = try system.devices.filter { try ($0.database.item(id)?.rev ?? 0) > 0 }
            guard holders.contains(where: { $0 === system.devices[author] }), holders.count > 1 else { continue }
            system.tally.fault("restore lost a create, its author's push failed once")
            trace("the server lost \(id.suffix(6)), which \(holders.count) devices hold")
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
    func heal(_ system: SimulatedSystem, tracked: inout [String: Tracked]) async throws {
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

    func check(_ system: SimulatedSystem, tracked: [String: Tracked]) async throws {
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
                // A tombstone is compared by what the server keeps of it: its text is the device's.
                let mine = item.deleted ? ChangeItem(item).tombstone.compactJSON() : ChangeItem(item).compactJSON()
                if mine != remote.compactJSON() {
                    problems.append("\(device.name): \(local.id) differs: \(mine) vs server \(remote.compactJSON())")
                }
            }
            // A device that never had an item holds nothing of its tombstone; every live item is
            // on both sides.
            let live = locals.filter { $0.item?.deleted == false }.count
            if live != server.values.filter({ !$0.deleted }).count {
                problems.append(
                    "\(device.name) holds \(live) live items, the server \(server.values.filter { !$0.deleted }.count)")
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
        for (id, item) in tracked.sorted(by: { $0.key < $1.key }) {
            if let model = item.model {
                system.tally.checked += model.changes
                // Every change of its one editor is acknowledged by now: the server and every
                // device hold the item as the editor left it (an item made and deleted before it
                // ever synced is on no server).
                if let final = server[id], !model.matches(final) {
                    problems.append(
                        "\(id.suffix(6)): the server holds \(Model(final)), its editor's last change was \(model)")
                } else if server[id] == nil, !model.deleted {
                    problems.append("\(id.suffix(6)) was lost from the server: \(model)")
                }
                for device in system.devices {
                    guard let local = try device.database.item(id) else { continue }
                    let copy = ChangeItem(local)
                    if !model.matches(copy) {
                        problems.append(
                            "\(device.name) holds \(id.suffix(6)) as \(Model(copy)), its editor's last change was \(model)"
                        )
                    }
                }
                continue
            }
            system.tally.checked += item.lines.count + item.tags.count
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
