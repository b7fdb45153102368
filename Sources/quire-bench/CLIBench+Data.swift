import Foundation
import QuireCore
import QuireStore

/// Deterministic benchmark content: a fixed vocabulary, a seeded generator.
enum CLIBenchData {
    static let vocabulary = [
        "milk", "report", "meeting", "garden", "invoice", "train", "review", "draft", "call", "plan",
        "budget", "email", "book", "paint", "fix", "clean", "order", "write", "read", "visit",
        "project", "client", "weekly", "notes", "idea", "recipe", "travel", "doctor", "bike", "music",
    ]

    /// The projects items take turns at (by tens, so that open items get each): a quarter are
    /// in `p` or under it, which `project:p` matches in both tools.
    static let projects = ["p", "home", "work", "p.errands", "music", "travel", "garden", "errands"]

    static func words(_ count: Int, _ random: inout SeededRandom) -> String {
        (0..<count).map { _ in vocabulary[Int(random.next() % UInt64(vocabulary.count))] }.joined(separator: " ")
    }

    /// A store of `count` items at `home`/quire.db, where `quire` finds it with `QUIRE_HOME`
    /// set to `home`; returns the ids of some open tasks (see `seed`).
    static func seedStore(count: Int, home: String, each: (ImportEntry) -> Void = { _ in }) throws -> [String] {
        let store = try AppDatabase.open(path: home + "/quire.db", environment: .live)
        let openTasks = try seed(count: count, into: store, each: each)
        try store.close()
        return openTasks
    }

    /// `count` items: every tenth open (alternating notes and tasks), the rest done tasks; one
    /// in a thousand carries the search word. Hands them to the store one at a time (a million
    /// entries at once would be gigabytes), and to `each` as they go, so that another tool can
    /// be given the very same items (their ids and dates included); returns the open tasks' ids.
    static func seed(count: Int, into store: AppDatabase, each: (ImportEntry) -> Void = { _ in }) throws -> [String] {
        var random = SeededRandom(seed: 2026)
        var ids = UUIDv7Generator()
        let start = Date().addingTimeInterval(-Double(count) * 60)
        var openTasks: [String] = []
        var index = 0
        _ = try store.importItems { () -> ImportEntry? in
            guard index < count else { return nil }
            defer { index += 1 }
            let created = start.addingTimeInterval(Double(index) * 60)
            let id = ids.next(now: created, using: &random)
            let open = index % 10 == 0
            let kind: ItemKind = open && index % 20 == 0 ? .note : .task
            var title = words(4, &random)
            if index % 1000 == 500 { title += " " + CLIBenchRun.searchWord }
            if open && kind == .task && openTasks.count < 1000 { openTasks.append(id) }
            let entry = ImportEntry(
                id: id, kind: kind, title: title.prefix(1).uppercased() + title.dropFirst(),
                body: words(40, &random), tags: [vocabulary[index % 7], "bench"], done: !open,
                due: index % 3 == 0 ? Day(year: 2026, month: 1 + index % 12, day: 1 + index % 28) : nil,
                priority: Priority.allCases[index % 4], project: projects[(index / 10) % projects.count],
                createdAt: created, updatedAt: created)
            each(entry)
            return entry
        }
        return openTasks
    }

    /// The items of an import file: `count` new open tasks, tagged `imported`, of low priority,
    /// with no ids (every run creates them afresh).
    static func importEntries(count: Int, seed: UInt64) -> [ImportEntry] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in
            let title = "Imported " + words(4, &random)
            return ImportEntry(
                kind: .task, title: title, body: words(30, &random), tags: ["imported"], priority: .low)
        }
    }

    /// A JSON import file of `count` new items (see `importEntries`).
    static func importFile(count: Int, seed: UInt64) -> Data {
        var bytes: [UInt8] = Array("[".utf8)
        for (index, entry) in importEntries(count: count, seed: seed).enumerated() {
            bytes.append(contentsOf: Array((index == 0 ? "\n" : ",\n").utf8))
            bytes.append(contentsOf: Array("{\"title\":".utf8))
            CompactJSON.appendString(entry.title, to: &bytes)
            bytes.append(contentsOf: Array(",\"kind\":\"task\",\"body\":".utf8))
            CompactJSON.appendString(entry.body, to: &bytes)
            bytes.append(contentsOf: Array(",\"tags\":".utf8))
            CompactJSON.appendStrings(entry.tags, to: &bytes)
            bytes.append(contentsOf: Array(",\"priority\":\"\(entry.priority.rawValue)\"}".utf8))
        }
        bytes.append(contentsOf: Array("\n]\n".utf8))
        return Data(bytes)
    }
}

/// The Markdown fragment for BENCHMARKS.md.
enum CLIBenchReport {
    /// A store size as the tables name it: `10k items`.
    static func label(_ size: Int) -> String {
        BenchSizes.label(size) + " items"
    }

    /// Milliseconds as the tables show them: a tenth below 100, whole above.
    static func format(_ value: Double) -> String { String(format: value < 100 ? "%.1f" : "%.0f", value) }

    static func markdown(_ table: [CLIBenchMeasurement: [Int: CLIBenchStats]], sizes: [Int], runs: Int) -> String {
        let showsRatio = sizes.contains(100_000) && sizes.contains(1_000_000)
        var lines = [
            "## CLI",
            "",
            "Whole-process wall time of the release `quire` binary (start, open the store, work, exit),",
            "median (90th percentile) in milliseconds over \(runs) runs (import: \(max(3, runs / 3))), against a store",
            "holding the given number of items: 10% open (notes and open tasks), 90% done tasks, each with a",
            "40-word body. `list --open --json` prints the open tasks (5k at 100k); `search` looks for a word",
            "found in one item in a thousand. The target applies at the largest size, except for the whole",
            "`list --open --json`: it prints a twentieth of the store, so its target applies at 100k (at 1M it",
            "prints 50k items, and what must stay fast is its first item). The filter (a tag, a project and a",
            "date in words, done tasks included as `quire list` shows them) keeps about one item in 95.",
            "`quire next` scores every open task and prints the ten most urgent.",
            "",
            "| command | " + sizes.map(label).joined(separator: " | ") + " | target | met |"
                + (showsRatio ? " 1M ÷ 100k |" : ""),
            "| --- | " + sizes.map { _ in "---:" }.joined(separator: " | ") + " | ---: | :---: |"
                + (showsRatio ? " ---: |" : ""),
        ]
        for measurement in CLIBenchMeasurement.allCases {
            let cells = sizes.map { size in
                table[measurement]?[size].map { "\(format($0.median)) (\(format($0.p90)))" } ?? "–"
            }
            let largest = sizes.max().flatMap { table[measurement]?[measurement.targetSize(largest: $0)]?.median }
            let met = largest.map { $0 < measurement.target ? "yes" : "**no**" } ?? "–"
            var row =
                "| \(measurement.rawValue) | " + cells.joined(separator: " | ")
                + " | < \(format(measurement.target)) ms | \(met) |"
            if showsRatio {
                // How the cost grows from 100k to 1M: near 1 when it follows the work, not the store.
                let ratio = table[measurement]?[1_000_000].flatMap { large in
                    table[measurement]?[100_000].map { large.median / $0.median }
                }
                row += ratio.map { " \(String(format: "%.2f", $0)) |" } ?? " – |"
            }
            lines.append(row)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
