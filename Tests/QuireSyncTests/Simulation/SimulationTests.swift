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
        let mine = Self.seeds.enumerated().filter { $0.offset % Self.chunks == chunk }.map(\.element)
        var tally = SimulatedSystem.Tally()
        var failures = 0
        for seed in mine {
            do {
                let run = try await SimulationRun(seed: seed, steps: SimulationRun.steps, faults: .init()).run()
                tally.add(run)
            } catch {
                // Every problem fails the run: a lost or doubled line, a private item that is
                // not as its editor left it, a review asked of a device that never changed the
                // item, and a device whose copy differs from the server's in any byte.
                failures += 1
                print("simulation: seed \(seed) failed")
                if failures <= 3 { Issue.record("\(error)") }
            }
        }
        #expect(failures == 0, "\(failures) of \(mine.count) seeds failed")
        let done = Self.totals.withLock { totals in
            totals.seeds += mine.count
            totals.failed += failures
            totals.tally.add(tally)
            totals.chunks += 1
            return totals.chunks == Self.chunks ? totals : nil
        }
        if let done {
            let kinds = done.tally.faults.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            print(
                "simulation: \(done.seeds) seeds, \(done.failed) failed; \(done.tally.ops) simulated ops, "
                    + "\(done.tally.acknowledged) ops acknowledged; faults: \(kinds.joined(separator: ", ")); "
                    + "\(done.tally.checked) changes checked after healing, "
                    + "\(done.failed == 0 ? "0 lost, 0 spurious reviews" : "failures reported above")")
        }
    }
}
