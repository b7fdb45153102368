import Foundation
import Synchronization
import Testing

@testable import QuireSync

/// The seeded simulation of the whole system (`SimulatedSystem`, `SimulationRun`).
///
/// `make test` runs `defaultSeeds` seeds and the regression seeds in chunks that run in
/// parallel; `make sim SEEDS=N` runs N (`QUIRE_SIM_SEEDS`, from `QUIRE_SIM_FIRST`) and the
/// regression seeds; `QUIRE_SIM_SEED=N` replays one seed, which is what every failure prints.
@Suite struct SimulationTests {
    static let defaultSeeds = 200
    static let chunks = 16

    static var seeds: [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let one = environment["QUIRE_SIM_SEED"].flatMap(UInt64.init) { return [one] }
        let count = environment["QUIRE_SIM_SEEDS"].flatMap(Int.init) ?? defaultSeeds
        let first = environment["QUIRE_SIM_FIRST"].flatMap(UInt64.init) ?? 1
        let range = first..<first + UInt64(count)
        return SimulationRun.regressionSeeds.filter { !range.contains($0) } + Array(range)
    }

    /// Totals of every chunk, printed once all are done.
    static let totals = Mutex<Totals>(Totals())

    struct Totals {
        var seeds = 0
        var failed = 0
        var tally = SimulatedSystem.Tally()
        var chunks = 0
    }

    @Test(arguments: 0..<chunks)
    func seededRunsLoseDuplicateAndDivergeNothing(_ chunk: Int) async throws {
        // Every problem fails the run: a lost or doubled line, a private item that is not as
        // its editor left it, a review asked of a device that never changed the item, and a
        // device whose copy differs from the server's in any byte.
        await Self.run(chunk, of: Self.seeds, named: "simulation", totals: Self.totals) { seed in
            try await SimulationRun(seed: seed, steps: SimulationRun.steps, faults: .init()).run()
        }
    }

    /// Totals of the recurring workload's chunks.
    static let recurringTotals = Mutex<Totals>(Totals())

    /// The recurring workload (`RecurringSimulationRun`) on the same seeds, less the main
    /// workload's regression seeds (they guard shapes of that workload).
    static var recurringSeeds: [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let one = environment["QUIRE_SIM_SEED"].flatMap(UInt64.init) { return [one] }
        let count = environment["QUIRE_SIM_SEEDS"].flatMap(Int.init) ?? defaultSeeds
        let first = environment["QUIRE_SIM_FIRST"].flatMap(UInt64.init) ?? 1
        return Array(first..<first + UInt64(count))
    }

    @Test(arguments: 0..<chunks)
    func recurringSeriesEndWithOneNextOccurrence(_ chunk: Int) async throws {
        await Self.run(chunk, of: Self.recurringSeeds, named: "simulation (recurring)", totals: Self.recurringTotals) {
            seed in
            try await RecurringSimulationRun(seed: seed, steps: SimulationRun.steps, faults: .init()).run()
        }
    }

    /// Runs this chunk's share of `seeds`, records the first failures, and prints the totals
    /// once every chunk of the workload is done.
    static func run(
        _ chunk: Int, of seeds: [UInt64], named name: String, totals: borrowing Mutex<Totals>,
        _ run: (UInt64) async throws -> SimulatedSystem.Tally
    ) async {
        let mine = seeds.enumerated().filter { $0.offset % chunks == chunk }.map(\.element)
        var tally = SimulatedSystem.Tally()
        var failures = 0
        for seed in mine {
            do {
                tally.add(try await run(seed))
            } catch {
                failures += 1
                print("\(name): seed \(seed) failed")
                if failures <= 3 { Issue.record("\(error)") }
            }
        }
        #expect(failures == 0, "\(failures) of \(mine.count) seeds failed")
        let done = totals.withLock { totals in
            totals.seeds += mine.count
            totals.failed += failures
            totals.tally.add(tally)
            totals.chunks += 1
            return totals.chunks == Self.chunks ? totals : nil
        }
        if let done { report(name, done) }
    }

    /// The last line of a workload: seeds, faults of each kind, changes checked.
    static func report(_ name: String, _ done: Totals) {
        let kinds = done.tally.faults.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        print(
            "\(name): \(done.seeds) seeds, \(done.failed) failed; \(done.tally.ops) simulated ops, "
                + "\(done.tally.acknowledged) ops acknowledged; faults: \(kinds.joined(separator: ", ")); "
                + "\(done.tally.checked) changes checked after healing, "
                + "\(done.failed == 0 ? "0 lost, 0 spurious reviews" : "failures reported above")")
    }
}
