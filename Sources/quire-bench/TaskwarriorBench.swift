import ArgumentParser
import Foundation

/// Quire beside Taskwarrior, the terminal task manager people would compare it with: the same
/// 10k items in both, the same jobs done by each tool's usual command, whole processes timed.
///
/// Why whole processes: both are used one command at a time from a shell or a script, so the
/// cost that matters is a command's from start to exit, start-up and file reading included.
/// Prints a Markdown table (median and 90th percentile of each tool, and their ratio) to
/// `--output`.
struct TaskwarriorBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taskwarrior",
        abstract: "Time quire and Taskwarrior's task side by side: add, done, list, a filter, next, search and import.")

    @Option(help: "The quire executable to time.")
    var quire: String

    @Option(help: "The task executable (Taskwarrior 2.6) to time.")
    var task: String

    @Option(help: "Where to write the Markdown fragment (default: standard output).")
    var output: String?

    @Option(help: "Items in each tool's store.")
    var size: Int = 10_000

    @Option(help: "Runs per measurement and tool.")
    var runs: Int = 15

    @Option(help: "Runs of the import of 10k items, per tool.")
    var importRuns: Int = 3

    func validate() throws {
        guard FileManager.default.isExecutableFile(atPath: task) else {
            throw ValidationError("no Taskwarrior at \(task): install it (scripts/deps.sh --bench)")
        }
        guard runs > 0, importRuns > 0 else { throw ValidationError("--runs and --import-runs must be 1 or more") }
    }

    func run() throws {
        let results = try TaskwarriorBenchRun(quire: quire, task: task, size: size, runs: runs, importRuns: importRuns)
            .measure()
        let markdown = TaskwarriorBenchReport.markdown(results, size: size, runs: runs, importRuns: importRuns)
        if let output {
            try markdown.write(toFile: output, atomically: true, encoding: .utf8)
        } else {
            print(markdown, terminator: "")
        }
    }
}
