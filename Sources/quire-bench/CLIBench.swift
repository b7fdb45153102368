import ArgumentParser
import Foundation
import QuireCore
import QuireStore

/// Whole-process timings of the CLI: the release `quire` binary started, run and waited for,
/// as a person or a script would, against stores of 1k, 10k and 100k items.
///
/// Each store is seeded in process (one import transaction) with 10% open items (notes and
/// open tasks) and 90% done tasks, titles and bodies drawn from a fixed vocabulary, and the
/// benchmark word in 0.1% of items. Prints a Markdown table (median and 90th percentile of
/// each measurement) to `--output`.
struct CLIBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cli",
        abstract: "Time quire add, done, list --json, search and import at 1k, 10k and 100k items.")

    @Option(help: "The quire executable to time.")
    var quire: String

    @Option(help: "Where to write the Markdown fragment (default: standard output).")
    var output: String?

    @Option(help: "Store sizes, comma-separated.")
    var sizes: String = "1000,10000,100000"

    @Option(help: "Runs per measurement (import runs a third as many).")
    var runs: Int = 15

    func run() async throws {
        let sizeList = BenchSizes.parse(sizes)
        var table: [CLIBenchMeasurement: [Int: CLIBenchStats]] = [:]
        for size in sizeList {
            let results = try CLIBenchRun(quire: quire, size: size, runs: runs).measure()
            for (measurement, stats) in results { table[measurement, default: [:]][size] = stats }
            FileHandle.standardError.write(Data("cli bench: \(size) items done\n".utf8))
        }
        let markdown = CLIBenchReport.markdown(table, sizes: sizeList, runs: runs)
        if let output {
            try markdown.write(toFile: output, atomically: true, encoding: .utf8)
        } else {
            print(markdown, terminator: "")
        }
    }
}
