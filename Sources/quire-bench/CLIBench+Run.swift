import Foundation
import QuireCore
import QuireStore

/// What the CLI benchmark times, with its target at 100k items (milliseconds).
enum CLIBenchMeasurement: String, CaseIterable, Hashable {
    case add = "`quire add TITLE --tag T`"
    case done = "`quire done ID`"
    case list = "`quire list --open --json` (open tasks)"
    case listFirst = "`quire list --open --json`: its first item out"
    case filtered = "`quire list +garden project:p due.before:eow` (a filter)"
    case next = "`quire next` (the 10 most urgent of the open tasks)"
    case search = "`quire search WORD`"
    case importFile = "`quire import` of 10k items (JSON)"

    var target: Double {
        switch self {
        case .add, .done: 15
        case .list, .filtered, .next: 150
        case .listFirst: 20
        case .search: 30
        case .importFile: 1000
        }
    }

    /// The size the target is judged at: the largest measured, except for the whole `list
    /// --json`, whose output is a tenth of the store (its cost follows what it prints).
    func targetSize(largest: Int) -> Int {
        self == .list ? min(largest, 100_000) : largest
    }
}

/// Median and 90th percentile of one measurement, in milliseconds.
struct CLIBenchStats {
    var median: Double
    var p90: Double

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        median = sorted[sorted.count / 2]
        p90 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.9).rounded(.up)) - 1)]
    }
}

/// One store size: seed a store, then time each command against it.
struct CLIBenchRun {
    let quire: String
    let size: Int
    let runs: Int
    /// The word the search runs for; it is in one item in a thousand.
    static let searchWord = "zephyr"
    /// A filter of the kind a Taskwarrior user types: a tag, a project and a date in words.
    static let filterTerms = ["+garden", "project:p", "due.before:eow"]
    static let filterArguments = ["list"] + filterTerms

    func measure() throws -> [CLIBenchMeasurement: CLIBenchStats] {
        let home = NSTemporaryDirectory() + "quire-bench-cli-\(size)-\(getpid())"
        try? FileManager.default.removeItem(atPath: home)
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let openTaskIDs = try seed(home: home)
        var results: [CLIBenchMeasurement: CLIBenchStats] = [:]

        // Warm the page cache and the WAL as a person's machine would be.
        _ = try time(["list", "--json"], home: home)

        results[.add] = CLIBenchStats(
            try (0..<runs).map { index in
                try time(["add", "benchmark item \(index)", "--tag", "bench"], home: home)
            })
        results[.done] = CLIBenchStats(
            try (0..<runs).map { index in
                try time(["done", openTaskIDs[index % openTaskIDs.count]], home: home)
            })
        results[.list] = CLIBenchStats(
            try (0..<max(5, runs / 2)).map { _ in try time(["list", "--open", "--json"], home: home) })
        results[.listFirst] = CLIBenchStats(
            try (0..<max(5, runs / 2)).map { _ in try timeToFirstItem(["list", "--open", "--json"], home: home) })
        results[.filtered] = CLIBenchStats(
            try (0..<max(5, runs / 2)).map { _ in try time(Self.filterArguments, home: home) })
        results[.next] = CLIBenchStats(try (0..<max(5, runs / 2)).map { _ in try time(["next"], home: home) })
        results[.search] = CLIBenchStats(try (0..<runs).map { _ in try time(["search", Self.searchWord], home: home) })
        let importRuns = max(3, runs / 3)
        var importSamples: [Double] = []
        for index in 0..<importRuns {
            let file = home + "/import-\(index).json"
            try CLIBenchData.importFile(count: 10_000, seed: UInt64(index + 1)).write(to: URL(fileURLWithPath: file))
            importSamples.append(try time(["import", file], home: home))
            try? FileManager.default.removeItem(atPath: file)
        }
        results[.importFile] = CLIBenchStats(importSamples)
        return results
    }

    /// Fills the store in process; returns the ids of some open tasks for `done`.
    private func seed(home: String) throws -> [String] {
        try CLIBenchData.seedStore(count: size, home: home)
    }

    /// `quire` on the data directory `home`.
    private func quireProcess(home: String) -> BenchProcess {
        BenchProcess(executable: quire, environment: ["QUIRE_HOME": home])
    }

    /// Milliseconds from starting `quire` to reading the end of the first item it prints (the
    /// first line that starts with `{`); the rest is read and the process must exit 0.
    private func timeToFirstItem(_ arguments: [String], home: String) throws -> Double {
        let pipe = Pipe()
        let process = quireProcess(home: home).process(arguments, output: pipe)
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        var seen: [UInt8] = []
        var firstItem: Double?
        while let chunk = try pipe.fileHandleForReading.read(upToCount: 1 << 16), !chunk.isEmpty {
            if firstItem == nil {
                seen.append(contentsOf: chunk)
                if let open = seen.firstIndex(of: UInt8(ascii: "{")), seen[open...].contains(10) {
                    firstItem = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
                    seen = []
                }
            }
        }
        process.waitWithoutSpinning()
        guard process.terminationStatus == 0, let firstItem else {
            throw CLIBenchError("quire \(arguments.joined(separator: " ")) printed no item")
        }
        return firstItem
    }

    /// Wall time of one whole `quire` process, in milliseconds; it must exit 0.
    private func time(_ arguments: [String], home: String) throws -> Double {
        try quireProcess(home: home).time(arguments)
    }
}

struct CLIBenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
