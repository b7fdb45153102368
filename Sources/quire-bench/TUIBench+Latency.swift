import Foundation
import QuireApp
import QuireStore
import QuireUI
import TerminalUI

/// Keystroke-to-frame latency through the app runtime over the benchmark store.
struct TUIBenchLatency {
    let path: String
    let presses: Int

    func measure() throws -> [(String, TUIBenchStats)] {
        let store = try AppDatabase.open(path: path)
        let backend = TestBackend(size: Size(width: 120, height: 40))
        let runtime = AppRuntime(
            environment: AppEnvironment(items: StoreItemSource(store: store)), backend: backend, label: "quire.bench.ui")
        runtime.start()
        runtime.waitUntilIdle()
        defer {
            runtime.stop()
            _ = runtime.waitUntilStopped()
        }

        func time(_ key: Key) -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            runtime.send(.key(key))
            runtime.waitUntilIdle()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
        }

        var results: [(String, TUIBenchStats)] = []
        results.append(("move the selection (`j`)", TUIBenchStats((0..<presses).map { _ in time(.character("j")) })))
        results.append(("page down (`PgDn`)", TUIBenchStats((0..<presses).map { _ in time(.pageDown) })))
        results.append(("page up (`PgUp`)", TUIBenchStats((0..<presses).map { _ in time(.pageUp) })))
        _ = time(.character("g"))
        var typing: [Double] = []
        let queries = ["garden", "weekly review", "budget", "music paint", "zzz nothing"]
        var round = 0
        while typing.count < presses {
            _ = time(.character("/"))
            for character in queries[round % queries.count] { typing.append(time(.character(character))) }
            _ = time(.escape)
            round += 1
        }
        results.append(("type a search (per key)", TUIBenchStats(typing)))
        return results
    }
}
