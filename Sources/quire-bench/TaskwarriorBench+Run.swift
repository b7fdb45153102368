import Foundation
import QuireCore
import QuireStore

/// What the side-by-side benchmark times: each row one job done by both tools' usual command.
enum TaskwarriorBenchMeasurement: CaseIterable, Hashable {
    case startUp, add, done, list, filtered, next, search, searchDone, importFile

    /// The row's first cell: the job, both commands, and what each prints.
    var label: String {
        switch self {
        case .startUp:
            "start-up: `quire list` on an empty store (prints nothing) · `task count` on an empty data folder (prints 0); "
                + "three times the runs"
        case .add: "add a task: `quire add TITLE --task --tag bench` · `task add TITLE +bench`"
        case .done: "complete an open task: `quire done ID` (full id) · `task N done` (its number)"
        case .list:
            "list the open tasks: `quire list --open` (open tasks) · `task list` (pending tasks, Quire's notes among them), "
                + "one line each"
        case .filtered:
            "a filter: `quire list +garden project:p due.before:eow` (done tasks too, as `quire list` shows) · "
                + "`task +garden project:p due.before:eow list` (pending tasks)"
        case .next: "the most urgent tasks: `quire next` (the top 10) · `task next` (a page of them)"
        case .search:
            "search a word found in one item in a thousand: `quire search zephyr` (titles, bodies, tags of every item) · "
                + "`task /zephyr/ list` (descriptions and annotations of pending tasks)"
        case .searchDone:
            "the same search over done tasks too: `quire search zephyr` · `task /zephyr/ all`"
        case .importFile: "import 10k new tasks (JSON): `quire import FILE` · `task import FILE`"
        }
    }
}

/// Both tools' timings of one measurement.
struct TaskwarriorBenchPair {
    var quire: CLIBenchStats
    var task: CLIBenchStats
}

/// One run of the comparison: a Quire store and a Taskwarrior data folder seeded with the same
/// items, then each command timed for both, the two taking turns.
struct TaskwarriorBenchRun {
    let quire: String
    let task: String
    let size: Int
    let runs: Int
    let importRuns: Int

    struct Results {
        var pairs: [TaskwarriorBenchMeasurement: TaskwarriorBenchPair] = [:]
        var quireVersion = ""
        var taskVersion = ""
    }

    /// What the seed holds, counted as it is made, to check what each command prints.
    private struct Expected {
        var open = 0
        var openTasks = 0
        var done = 0
        var matches = 0
        var openMatches = 0
    }

    func measure() throws -> Results {
        let folder = NSTemporaryDirectory() + "quire-bench-taskwarrior-\(getpid())"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder + "/quire", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let taskHome = TaskwarriorHome(folder: folder + "/task")
        try taskHome.create()
        let quire = BenchProcess(executable: self.quire, environment: ["QUIRE_HOME": folder + "/quire"])
        let task = taskHome.process(self.task)

        var results = Results()
        results.quireVersion = try quire.output(["--version"]).trimmingCharacters(in: .whitespacesAndNewlines)
        results.taskVersion = try task.output(["--version"]).trimmingCharacters(in: .whitespacesAndNewlines)

        // Start-up first, on empty stores: what every command pays before it does anything.
        _ = try quire.output(["list"])
        _ = try task.output(["count"])
        results.pairs[.startUp] = try sideBySide(
            runs * 3,
            quire: { _ in try timeLines(quire, ["list"], expect: 0, containing: nil) },
            task: { _ in
                let (milliseconds, output) = try task.timeReading(["count"])
                guard output.trimmingCharacters(in: .whitespacesAndNewlines) == "0" else {
                    throw CLIBenchError("task count on an empty data folder printed \(output)")
                }
                return milliseconds
            })

        var expected = Expected()
        let openTasks = try seed(quireHome: folder + "/quire", task: task, folder: folder, expected: &expected)
        guard openTasks.count >= runs else {
            throw CLIBenchError("\(size) items hold \(openTasks.count) open tasks, fewer than \(runs) runs")
        }

        // Warm the page cache as a person's machine would be (and let Taskwarrior tidy its files).
        _ = try quire.output(["list"])
        _ = try task.output(["list"])

        results.pairs[.add] = try sideBySide(
            runs,
            quire: { try quire.timeReading(["add", "benchmark item \($0)", "--task", "--tag", "bench"]).milliseconds },
            task: { try task.timeReading(["add", "benchmark item \($0)", "+bench"]).milliseconds })
        results.pairs[.done] = try sideBySide(
            runs,
            quire: { try quire.timeReading(["done", openTasks[$0]]).milliseconds },
            task: { index in
                // Its number now: finishing tasks and adding others renumbers them.
                let number = try task.output(["_get", "\(openTasks[index]).id"])
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                guard let id = Int(number), id > 0 else {
                    throw CLIBenchError("task \(openTasks[index]) has no number (\(number))")
                }
                return try task.timeReading([String(id), "done"]).milliseconds
            })
        for id in openTasks.prefix(runs) {
            let status = try task.output(["_get", "\(id).status"]).trimmingCharacters(in: .whitespacesAndNewlines)
            guard status == "completed" else { throw CLIBenchError("task \(id) is \(status) after task done") }
        }

        // Added and completed as many: the open count is the seed's.
        let open = expected.open
        _ = try task.output(["list"])
        results.pairs[.list] = try sideBySide(
            runs,
            quire: { _ in try timeLines(quire, ["list", "--open"], expect: expected.openTasks, containing: nil) },
            task: { _ in try timeLines(task, ["list"], expect: open, containing: nil) })
        // What these print depends on the day (`eow`, urgency): each must print something.
        let filter = CLIBenchRun.filterTerms
        results.pairs[.filtered] = try sideBySide(
            runs,
            quire: { _ in try timeLines(quire, ["list"] + filter, atLeast: 1) },
            task: { _ in try timeLines(task, filter + ["list"], atLeast: 1) })
        results.pairs[.next] = try sideBySide(
            runs,
            quire: { _ in try timeLines(quire, ["next"], atLeast: 10) },
            task: { _ in try timeLines(task, ["next"], atLeast: 1) })
        results.pairs[.search] = try sideBySide(
            runs,
            quire: { _ in try timeLines(quire, ["search", CLIBenchRun.searchWord], expect: expected.matches) },
            task: { _ in try timeLines(task, ["/\(CLIBenchRun.searchWord)/", "list"], expect: expected.openMatches) })
        results.pairs[.searchDone] = try sideBySide(
            runs,
            quire: { _ in try timeLines(quire, ["search", CLIBenchRun.searchWord], expect: expected.matches) },
            task: { _ in try timeLines(task, ["/\(CLIBenchRun.searchWord)/", "all"], expect: expected.matches) })
        results.pairs[.importFile] = try timeImports(quire: quire, task: task, folder: folder)
        return results
    }

    /// Seeds both tools with the same items: the Quire store in process, Taskwarrior with
    /// `task import` of the same items as a Taskwarrior export. Returns open tasks' ids (their
    /// Taskwarrior uuids too).
    private func seed(quireHome: String, task: BenchProcess, folder: String, expected: inout Expected) throws
        -> [String]
    {
        var export = TaskwarriorExport()
        var counts = Expected()
        let openTasks = try CLIBenchData.seedStore(count: size, home: quireHome) { entry in
            export.append(entry)
            let matches = entry.title.lowercased().contains(CLIBenchRun.searchWord)
            if entry.done { counts.done += 1 } else { counts.open += 1 }
            if !entry.done && entry.kind == .task { counts.openTasks += 1 }
            if matches { counts.matches += 1 }
            if matches && !entry.done { counts.openMatches += 1 }
        }
        expected = counts
        let file = folder + "/seed.json"
        try export.data.write(to: URL(fileURLWithPath: file))
        _ = try task.output(["import", file])
        try checkCount(task, ["status:pending", "count"], is: counts.open)
        try checkCount(task, ["status:completed", "count"], is: counts.done)
        return openTasks
    }

    /// `importRuns` imports of 10k new items into each tool (each run a new file, so new ids),
    /// checking that each really added them.
    private func timeImports(quire: BenchProcess, task: BenchProcess, folder: String) throws -> TaskwarriorBenchPair {
        let items = 10_000
        var pending = try count(task, ["status:pending", "count"])
        return try sideBySide(
            importRuns,
            quire: { index in
                let file = folder + "/import-quire-\(index).json"
                try CLIBenchData.importFile(count: items, seed: UInt64(index + 1)).write(to: URL(fileURLWithPath: file))
                defer { try? FileManager.default.removeItem(atPath: file) }
                let (milliseconds, output) = try quire.timeReading(["import", file])
                guard output.contains("\(items) new") else { throw CLIBenchError("quire import: \(output)") }
                return milliseconds
            },
            task: { index in
                let file = folder + "/import-task-\(index).json"
                var export = TaskwarriorExport()
                for entry in CLIBenchData.importEntries(count: items, seed: UInt64(index + 1)) { export.append(entry) }
                try export.data.write(to: URL(fileURLWithPath: file))
                defer { try? FileManager.default.removeItem(atPath: file) }
                let milliseconds = try task.timeReading(["import", file]).milliseconds
                pending += items
                try checkCount(task, ["status:pending", "count"], is: pending)
                return milliseconds
            })
    }

    /// Times `quire` and `task` at one measurement, `runs` times each, taking turns at going
    /// first: the machine's background noise and the page cache's state then fall on both alike.
    private func sideBySide(
        _ runs: Int, quire: (Int) throws -> Double, task: (Int) throws -> Double
    ) throws -> TaskwarriorBenchPair {
        var quireSamples: [Double] = []
        var taskSamples: [Double] = []
        for index in 0..<runs {
            if index.isMultiple(of: 2) {
                quireSamples.append(try quire(index))
                taskSamples.append(try task(index))
            } else {
                taskSamples.append(try task(index))
                quireSamples.append(try quire(index))
            }
        }
        return TaskwarriorBenchPair(quire: CLIBenchStats(quireSamples), task: CLIBenchStats(taskSamples))
    }

    /// Wall time of a command that prints items one line each; it must print `expect` lines
    /// (lines holding the search word, when `containing` is given), so that a command that
    /// finds nothing cannot pass for a fast one.
    private func timeLines(
        _ process: BenchProcess, _ arguments: [String], expect: Int,
        containing word: String? = CLIBenchRun.searchWord
    ) throws -> Double {
        let (milliseconds, output) = try process.timeReading(arguments)
        let lines = output.split(separator: "\n").filter { line in word.map { line.lowercased().contains($0) } ?? true }
        guard lines.count == expect else {
            throw CLIBenchError(
                "\(process.name) \(arguments.joined(separator: " ")) printed \(lines.count) items, not \(expect)")
        }
        return milliseconds
    }

    /// Wall time of a command that prints at least `minimum` lines.
    private func timeLines(_ process: BenchProcess, _ arguments: [String], atLeast minimum: Int) throws -> Double {
        let (milliseconds, output) = try process.timeReading(arguments)
        let lines = output.split(separator: "\n").count
        guard lines >= minimum else {
            throw CLIBenchError(
                "\(process.name) \(arguments.joined(separator: " ")) printed \(lines) lines, fewer than \(minimum)")
        }
        return milliseconds
    }

    private func count(_ task: BenchProcess, _ arguments: [String]) throws -> Int {
        let text = try task.output(arguments).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let value = Int(text) else { throw CLIBenchError("task \(arguments.joined(separator: " ")): \(text)") }
        return value
    }

    private func checkCount(_ task: BenchProcess, _ arguments: [String], is expected: Int) throws {
        let actual = try count(task, arguments)
        guard actual == expected else {
            throw CLIBenchError("task \(arguments.joined(separator: " ")) is \(actual), not \(expected)")
        }
    }
}
