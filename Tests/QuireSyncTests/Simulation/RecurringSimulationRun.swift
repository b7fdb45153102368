import Foundation
import QuireCore
import QuireProtocol
import QuireStore

@testable import QuireSync

/// The recurring workload (issue 30): one recurring task on every device, its occurrences
/// completed on whichever device the seed picks, often the same occurrence on two devices
/// before either has heard of the other's (offline or not), under the same faults as the main
/// workload; then healing and the checks.
///
/// A separate workload, not steps mixed into the main one: any new step would change what
/// every seed does, and the regression seeds would no longer replay the shapes they guard.
///
/// The reference model is the series as the workload drove it: the rule's dates from the
/// first due date on, and which of them some device completed. Completing an occurrence
/// brings up the one after it, so at the end the server and every device must hold exactly
/// one item for each date up to one past the last completed, the completed ones done, the
/// last one open, and no other occurrence: not one more, whichever devices completed which.
struct RecurringSimulationRun {
    let seed: UInt64
    let steps: Int
    let faults: SimulatedSystem.Faults

    /// The series as the workload knows it.
    struct Series {
        let title: String
        /// The occurrences' due dates, in order: the first, then each one the rule brings up
        /// when the one before is completed.
        private(set) var dues: [Day]
        private var rule: Recurrence
        /// Which dates (indices into `dues`) some device completed, and which devices did.
        private(set) var completedBy: [Int: Set<Int>] = [:]

        init(title: String, due: Day, rule: Recurrence) {
            (self.title, dues, self.rule) = (title, [due], rule)
        }

        /// A device completed the occurrence due `due`: the rule's next date joins the series
        /// when it was the last. Returns how many devices had completed it before, or nil when
        /// `due` is none of the series' dates.
        mutating func complete(due: Day, by device: Int) -> Int? {
            guard let index = dues.firstIndex(of: due) else { return nil }
            let before = completedBy[index, default: []].count
            completedBy[index, default: []].insert(device)
            if index == dues.count - 1, let (next, nextRule) = rule.next(after: due) {
                dues.append(next)
                rule = nextRule
            }
            return before
        }
    }

    /// The rules the seeds take turns at; the monthly one starts on a month's last day, so
    /// that its dates clamp (Jan 31, Feb 28, Mar 31…).
    static let rules: [(rule: String, first: Day)] = [
        ("monthly", Day(year: 2026, month: 1, day: 31)!), ("weekly", Day(year: 2026, month: 3, day: 2)!),
        ("3d", Day(year: 2026, month: 2, day: 26)!), ("yearly", Day(year: 2028, month: 2, day: 29)!),
    ]

    func run() async throws -> SimulatedSystem.Tally {
        let base = SimulationRun(seed: seed, steps: steps, faults: faults)
        let system = try await SimulatedSystem(seed: seed, devices: seed % 4 == 3 ? 3 : 2, faults: .none)
        let (ruleText, first) = Self.rules[Int(seed % UInt64(Self.rules.count))]
        let rule = Recurrence(ruleText)!
        var series = Series(title: "water the plants s\(seed)", due: first, rule: rule)
        let root = try system.devices[0].database.create(
            NewItem(kind: .task, title: series.title, due: first, recur: rule))
        base.trace("device0 creates the series \(root.id.suffix(6)), \(ruleText) from \(first)")
        // Every device holds the first occurrence before the faults begin.
        var tracked: [String: SimulationRun.Tracked] = [:]
        try await base.heal(system, tracked: &tracked)
        system.faults = faults

        for _ in 0..<steps {
            system.tick()
            let index = system.pick(system.devices.count)
            let device = system.devices[index]
            system.tally.ops += 1
            switch system.pick(100) {
            case 0..<35:
                try complete(series: &series, device: device, index: index, system: system, base: base)
            case 35..<45:
                device.online.toggle()
                base.trace("\(device.name) goes \(device.online ? "online" : "offline")")
            default:
                _ = try await base.sync(device)
            }
            try await base.injectFaults(system, tracked: tracked)
        }

        // Any review of an occurrence is spurious: both devices made the same change.
        for device in system.devices {
            for record in try device.database.conflicts() {
                system.tally.spuriousConflicts += 1
                base.trace("\(device.name) is asked to review occurrence \(record.itemID.suffix(6))")
            }
        }
        try await base.heal(system, tracked: &tracked)
        try await base.check(system, tracked: tracked)
        try await check(series, system: system)
        return system.tally
    }

    /// The device completes the open occurrence it holds (the earliest, should it hold two).
    private func complete(
        series: inout Series, device: SimulatedSystem.Device, index: Int, system: SimulatedSystem,
        base: SimulationRun
    ) throws {
        let open = try occurrences(of: series, in: device.database).filter { !$0.done && !$0.deleted }
        guard let occurrence = open.min(by: { ($0.due!, $0.id) < ($1.due!, $1.id) }) else { return }
        _ = try device.database.setDone([occurrence.id], true)
        guard let before = series.complete(due: occurrence.due!, by: index) else {
            throw SimulationRun.Failure(
                description: "seed \(seed): \(device.name) held an occurrence due \(occurrence.due!), "
                    + "which is none of the series' dates \(series.dues)")
        }
        if before > 0 {
            system.tally.fault("occurrence completed again\(device.online ? "" : " offline")")
        }
        base.trace("\(device.name) completes the occurrence due \(occurrence.due!)\(device.online ? "" : " (offline)")")
    }

    /// The series' items on a device, deleted ones too.
    private func occurrences(of series: Series, in database: AppDatabase) throws -> [Item] {
        try database.items(matching: ItemFilter(includeDeleted: true)).filter { $0.title == series.title }
    }

    /// Every device (the main checks have shown them equal to the server) against the model.
    private func check(_ series: Series, system: SimulatedSystem) async throws {
        var problems: [String] = []
        system.tally.checked += series.dues.count
        typealias Copy = (due: Day?, done: Bool, deleted: Bool)
        var holders: [(name: String, items: [Copy])] = [
            (
                "the server",
                try await system.serverItems().values.filter { $0.title == series.title }
                    .map { ($0.due, $0.done, $0.deleted) }
            )
        ]
        for device in system.devices {
            let items = try occurrences(of: series, in: device.database).map { ($0.due, $0.done, $0.deleted) }
            holders.append((device.name, items))
        }
        for (name, items) in holders {
            if items.count != series.dues.count {
                problems.append(
                    "\(name) holds \(items.count) occurrences, the series has \(series.dues.count) "
                        + "(\(series.completedBy.count) completed)")
            }
            for (position, due) in series.dues.enumerated() {
                let copies = items.filter { $0.due == due }
                let completed = series.completedBy[position] != nil
                if copies.count != 1 {
                    problems.append("\(name) holds \(copies.count) occurrences due \(due)")
                } else if copies[0].deleted {
                    problems.append("\(name) holds the occurrence due \(due) deleted")
                } else if copies[0].done != completed {
                    problems.append(
                        "\(name) holds the occurrence due \(due) \(copies[0].done ? "done" : "open"), "
                            + "\(completed ? "completed" : "never completed") by the workload")
                }
            }
        }
        if !problems.isEmpty {
            throw SimulationRun.Failure(
                description: "seed \(seed) (recurring): \(problems.count) problems (replay: "
                    + "QUIRE_SIM_SEED=\(seed) swift test --filter SimulationTests):\n"
                    + problems.prefix(12).joined(separator: "\n"))
        }
    }
}
