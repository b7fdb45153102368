import Foundation
import Synchronization
import Testing

@testable import QuireSync

/// The seeded simulation of the whole system (`SimulatedSystem`, `SimulationRun`).
///
/// `make test` runs `defaultSeeds` seeds in chunks that run in parallel; `make sim SEEDS=N`
/// runs N (`QUIRE_SIM_SEEDS`, from `QUIRE_SIM_FIRST`); `QUIRE_SIM_SEED=N` replays one seed,
/// which is what every failure prints.
@Suite struct SimulationTests {
    static let defaultSeeds = 1_000
    static let chunks = 16

    static var seeds: [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let one = environment["QUIRE_SIM_SEED"].flatMap(UInt64.init) { return [one] }
        let count = environment["QUIRE_SIM_SEEDS"].flatMap(Int.init) ?? defaultSeeds
        let first = environment["QUIRE_SIM_FIRST"].flatMap(UInt64.init) ?? 1
        return (0..<UInt64(count)).map { first + $0 }
    }

    /// Totals of every chunk, printed once all are done.
    static let totals = Mutex<(seeds: Int, ops: Int, faults: [String: Int], chunks: Int)>((0, 0, [:], 0))

    @Test(arguments: 0..<chunks)
    func seededRunsLoseDuplicateAndDivergeNothing(_ chunk: Int) async throws {
        let mine = Self.seeds.enumerated().filter { $0.offset % Self.chunks == chunk }.map(\.element)
        var ops = 0
        var faults: [String: Int] = [:]
        var failures = 0
        for seed in mine {
            do {
                let tally = try await SimulationRun(seed: seed, steps: 40, faults: .init()).run()
                ops += tally.ops
                faults.merge(tally.faults, uniquingKeysWith: +)
            } catch {
                // Every problem fails the run: a lost or doubled line, a conflict on an item one
                // device alone changed, and a device whose copy differs from the server's in any
                // byte, times included.
                failures += 1
                if failures <= 3 { Issue.record("\(error)") }
            }
        }
        #expect(failures == 0, "\(failures) of \(mine.count) seeds failed")
        let done = Self.totals.withLock { totals in
            totals.seeds += mine.count
            totals.ops += ops
            totals.faults.merge(faults, uniquingKeysWith: +)
            totals.chunks += 1
            return totals.chunks == Self.chunks ? totals : nil
        }
        if let done {
            let kinds = done.faults.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            print(
                "simulation: \(done.seeds) seeds, \(done.ops) simulated ops, faults: \(kinds); "
                    + "0 lost, 0 duplicated, 0 diverged, 0 spurious conflicts unless reported above")
        }
    }
}
