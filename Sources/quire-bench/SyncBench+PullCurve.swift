import Foundation
import QuireStore

/// The first pull's cost curve: a new device pulls a server holding 1k, 10k, 100k (and, with
/// SIZES, 1M) items. What should grow with the items is the time; the time per item should not,
/// which the 1M ÷ 100k ratio shows.
extension SyncBench {
    func pullCurve(sizes: [Int]) async throws -> [String] {
        var rows: [(items: Int, seconds: TimeInterval, network: TimeInterval)] = []
        for size in sizes {
            let (server, _, _) = try await seededServer(items: size)
            defer { server.stop() }
            progress("first pull of \(size) items (cost curve)")
            let pull = try await firstPull(from: server)
            try pull.store.close()
            guard pull.pulled == size else { throw BenchFailure("pulled \(pull.pulled) of \(size) items") }
            rows.append((size, pull.seconds, pull.network))
        }
        var lines = [
            "", "### First pull by a new device at each size", "",
            "Targets: 100k items in under 2 s, 1M in under 20 s (as fast as the server serves them).", "",
            "| items | time | items/s | waiting for the server | target | met |",
            "| ---: | ---: | ---: | ---: | ---: | :---: |",
        ]
        for row in rows {
            let target: TimeInterval? = row.items == 100_000 ? 2 : row.items == 1_000_000 ? 20 : nil
            let met = target.map { row.seconds < $0 ? "yes" : "**no**" } ?? "–"
            lines.append(
                "| \(row.items) | \(seconds(row.seconds)) | \(Int((Double(row.items) / row.seconds).rounded())) | "
                    + "\(seconds(row.network)) | \(target.map { "< \(Int($0)) s" } ?? "–") | \(met) |")
        }
        if let hundred = rows.first(where: { $0.items == 100_000 }),
            let million = rows.first(where: { $0.items == 1_000_000 })
        {
            let ratio = (million.seconds / 1_000_000) / (hundred.seconds / 100_000)
            lines += ["", "Time per item, 1M ÷ 100k: \(String(format: "%.2f", ratio))."]
        }
        return lines
    }
}
