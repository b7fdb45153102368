import ArgumentParser
import Foundation
import QuireCore
import QuireStore

/// The TUI's speed at each store size: launch to first full frame and peak memory of the release
/// `quire` on a real pseudo-terminal, and keystroke-to-frame latency of the app runtime.
///
/// Targets (from the TUI issue): first frame under 150 ms, p99 keystroke-to-frame under 16 ms,
/// peak memory under 80 MB (100 MB at 1M items); search results within 50 ms at 1M. Prints a
/// Markdown fragment to `--output`.
struct TUIBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui", abstract: "Time the TUI's first frame, keystroke latency and memory at each store size.")

    @Option(help: "The quire executable to launch on a pseudo-terminal.")
    var quire: String

    @Option(help: "Where to write the Markdown fragment (default: standard output).")
    var output: String?

    @Option(help: "Store sizes, comma-separated: each is seeded and measured in turn.")
    var sizes: String = "1000,10000,100000"

    @Option(help: "Launches to time.")
    var launches: Int = 15

    @Option(help: "Key presses per latency measurement.")
    var presses: Int = 300

    @Option(help: "A folder to keep the seeded stores in and reuse, one per size (default: temporary ones).")
    var home: String?

    func run() async throws {
        let sizeList = BenchSizes.parse(sizes)
        guard !sizeList.isEmpty else { throw ValidationError("--sizes names no store size") }
        var runs: [TUIBenchRun] = []
        for size in sizeList { runs.append(try measure(items: size)) }
        let markdown = TUIBenchReport.markdown(runs)
        if let output {
            try markdown.write(toFile: output, atomically: true, encoding: .utf8)
        } else {
            print(markdown, terminator: "")
        }
    }

    /// Seeds (or reuses) a store of `items` items and takes every measure on it.
    private func measure(items: Int) throws -> TUIBenchRun {
        let home = self.home.map { "\($0)/\(items)" } ?? NSTemporaryDirectory() + "quire-tui-bench-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { if self.home == nil { try? FileManager.default.removeItem(atPath: home) } }
        if !FileManager.default.fileExists(atPath: home + "/quire.db") {
            let seedStart = Date()
            try TUIBenchData.seed(path: home + "/quire.db", count: items)
            log("seeded \(items) items in \(Int(Date().timeIntervalSince(seedStart)))s")
        }

        let counting = try AppDatabase.open(path: home + "/quire.db")
        let total = try counting.count(matching: .live)
        try counting.close()
        let launch = TUIBenchLaunch(quire: quire, home: home, total: total)
        var firstFrames: [Double] = []
        for _ in 0..<launches {
            firstFrames.append(try launch.timeFirstFrame())
        }
        log("\(items) items: first frame \(firstFrames.sorted()[firstFrames.count / 2]) ms median")
        let peak = try launch.peakMemoryAfterUse()
        log("\(items) items: peak memory \(peak) MB")
        let latency = try TUIBenchLatency(path: home + "/quire.db", presses: presses).measure()
        log("\(items) items: latency measured")
        return TUIBenchRun(items: items, firstFrames: TUIBenchStats(firstFrames), peakMegabytes: peak, latency: latency)
    }

    private func log(_ text: String) {
        FileHandle.standardError.write(Data("tui bench: \(text)\n".utf8))
    }
}

/// Percentiles of a set of measurements in milliseconds.
struct TUIBenchStats {
    let sorted: [Double]

    init(_ values: [Double]) { sorted = values.sorted() }

    func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank))]
    }

    var median: Double { percentile(50) }
    var p99: Double { percentile(99) }
    var max: Double { sorted.last ?? 0 }

    /// Where the p99 of runs like this one falls, 90 times in 100: the 5th and 95th percentiles
    /// of the p99s of 2,000 resamples (drawn with replacement, from a fixed seed, so a run's
    /// figures can be reproduced). Over a few hundred keys a p99 rests on its two or three
    /// slowest, so two rows' p99s differ beyond noise only when these intervals do not meet.
    var p99Interval: ClosedRange<Double> {
        guard !sorted.isEmpty else { return 0...0 }
        var generator = SeededRandom(seed: 0x5EED)
        let resampled = (0..<2000).map { _ in
            TUIBenchStats((0..<sorted.count).map { _ in sorted[Int(generator.next() % UInt64(sorted.count))] }).p99
        }
        let p99s = TUIBenchStats(resampled)
        return p99s.percentile(5)...p99s.percentile(95)
    }

    /// How much higher this run's p99 is than `other`'s, and how often a difference at least
    /// as large comes from chance alone: the share of 2,000 random relabellings of the two runs'
    /// keys pooled (a fixed seed) whose first part's p99 exceeds the second's by as much. A
    /// permutation test, so it assumes nothing of the latencies' shape; below 0.05 the runs'
    /// p99s differ beyond noise.
    func p99Shift(over other: TUIBenchStats) -> (milliseconds: Double, chance: Double) {
        let observed = p99 - other.p99
        guard !sorted.isEmpty, !other.sorted.isEmpty else { return (observed, 1) }
        var generator = SeededRandom(seed: 0x5EED)
        var pooled = sorted + other.sorted
        var asLarge = 0
        let draws = 2000
        for _ in 0..<draws {
            // Fisher–Yates over the pooled keys, then the first `sorted.count` as this run.
            for index in stride(from: pooled.count - 1, to: 0, by: -1) {
                pooled.swapAt(index, Int(generator.next() % UInt64(index + 1)))
            }
            let first = TUIBenchStats(Array(pooled[..<sorted.count]))
            let second = TUIBenchStats(Array(pooled[sorted.count...]))
            if first.p99 - second.p99 >= observed { asLarge += 1 }
        }
        return (observed, Double(asLarge) / Double(draws))
    }
}

enum TUIBenchReport {
    /// The p99 a latency row must stay under, or nil when it is reported without a target:
    /// every key's frame within 16 ms (opening the 1 MB note, in the editor or the item view,
    /// within two frames);
    /// a search's results within 16 ms up to 100k items and 50 ms at a million; the full count
    /// of a search's matches is not held to one.
    static func latencyTarget(_ name: String, items: Int) -> Double? {
        if name.hasSuffix("every match counted") { return nil }
        // Opening a note is held to a frame or two.
        if name.contains("open at its end") || name.contains("open (`Enter`)") { return 33 }
        if name.hasSuffix("key to results") { return items >= 1_000_000 ? 50 : 16 }
        return 16
    }

    static func markdown(_ runs: [TUIBenchRun]) -> String {
        let largest = runs.max { $0.items < $1.items }!
        let items = largest.items
        let firstFrames = largest.firstFrames
        let peakMegabytes = largest.peakMegabytes
        let latency = largest.latency
        func ms(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.1f", value) }
        let first = firstFrames
        var lines = [
            "## TUI",
            "",
            "Release build, stores of \(runs.map { BenchSizes.label($0.items) }.joined(separator: ", ")) items (a 120x40 screen); the",
            "first table is the largest, the second the cost curve. *First frame*: the release",
            "`quire` started on a pseudo-terminal until its first full frame (the status bar with the item",
            "count) has been written, \(firstFrames.sorted.count) launches. *Keystroke to frame*: a key sent to the app",
            "runtime (the same update, store queries, render and diff as on a terminal; the ncurses write",
            "itself is not included) until its frame is drawn. A search key's frame shows what was typed at",
            "once; the matching list is read off the UI queue and drawn when ready: *key to results* is the",
            "first frame whose rows are the best matches of what was typed (ranked over every match; target",
            "p99 < 16 ms at 100k, < 50 ms at 1M); *every match counted* waits until the full count of a",
            "capped search is also drawn in the status bar (not held to a target). *Peak memory*: the",
            "`quire` process's peak resident size (VmHWM) after the first frame, going to the bottom,",
            "paging and searching.",
            "",
            "### \(BenchSizes.label(items)) items",
            "",
            "| measure | p50 | p99 | max | target | met |",
            "| --- | ---: | ---: | ---: | ---: | :---: |",
            "| launch to first full frame (ms) | \(ms(first.median)) | \(ms(first.p99)) | \(ms(first.max)) | < 150 | "
                + (first.median < 150 ? "yes" : "no") + " |",
        ]
        for (name, stats) in latency {
            guard let target = latencyTarget(name, items: items) else {
                lines.append("| \(name) (ms) | \(ms(stats.median)) | \(ms(stats.p99)) | \(ms(stats.max)) | – | – |")
                continue
            }
            lines.append(
                "| \(name) (ms) | \(ms(stats.median)) | \(ms(stats.p99)) | \(ms(stats.max)) | "
                    + "p99 < \(Int(target)) | " + (stats.p99 < target ? "yes" : "no") + " |")
        }
        let memoryTarget: Double = items >= 1_000_000 ? 100 : 80
        lines.append(
            "| peak memory (MB) | | | \(String(format: "%.1f", peakMegabytes)) | < \(Int(memoryTarget)) | "
                + (peakMegabytes < memoryTarget ? "yes" : "no") + " |")
        lines += curve(runs)
        lines.append("")
        return lines.joined(separator: "\n")
    }

    /// One row per measure, one column per store size: the first frame's median, each key's
    /// p99 and the peak memory, with the 1M ÷ 100k ratio when both were measured.
    static func curve(_ runs: [TUIBenchRun]) -> [String] {
        let sorted = runs.sorted { $0.items < $1.items }
        guard sorted.count > 1 else { return [] }
        func cell(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.1f", value) }
        let hundred = sorted.firstIndex { $0.items == 100_000 }
        let million = sorted.firstIndex { $0.items == 1_000_000 }
        var lines = [
            "", "### Cost curve", "",
            "| measure | " + sorted.map { BenchSizes.label($0.items) }.joined(separator: " | ") + " | 1M ÷ 100k |",
            "| --- | " + sorted.map { _ in "---:" }.joined(separator: " | ") + " | ---: |",
        ]
        func row(_ name: String, _ values: [Double]) {
            let ratio =
                hundred.flatMap { h in million.map { m in String(format: "%.2f", values[m] / values[h]) } } ?? "–"
            lines.append("| \(name) | " + values.map(cell).joined(separator: " | ") + " | \(ratio) |")
        }
        row("launch to first full frame, p50 (ms)", sorted.map(\.firstFrames.median))
        for (index, (name, _)) in sorted[0].latency.enumerated() {
            row("\(name), p99 (ms)", sorted.map { $0.latency[index].1.p99 })
        }
        row("peak memory (MB)", sorted.map(\.peakMegabytes))
        return lines
    }
}

/// Every measure taken on one store size.
struct TUIBenchRun {
    let items: Int
    let firstFrames: TUIBenchStats
    let peakMegabytes: Double
    let latency: [(String, TUIBenchStats)]
}
