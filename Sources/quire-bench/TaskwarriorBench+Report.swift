import Foundation

/// The Markdown fragment for BENCHMARKS.md: one row per job, both tools' times and their ratio.
enum TaskwarriorBenchReport {
    static func markdown(_ results: TaskwarriorBenchRun.Results, size: Int, runs: Int, importRuns: Int) -> String {
        // The heading names the release line ("2.6"), the text the exact version.
        let series = results.taskVersion.split(separator: ".").prefix(2).joined(separator: ".")
        let format = CLIBenchReport.format
        var lines = [
            "## Side by side with Taskwarrior \(series) at \(CLIBenchReport.label(size))",
            "",
            "Quire \(results.quireVersion) (release build) beside Taskwarrior \(results.taskVersion) (Debian's `taskwarrior`,",
            "with a private rc file: no confirmation, colour, headers or hooks, recurrence off, case-blind",
            "search, no line width limit) on the same \(CLIBenchReport.label(size)): 10% open (Quire's notes are",
            "pending tasks in Taskwarrior), 90% done, each with a 40-word body (a Taskwarrior annotation).",
            "Whole processes with their output read from a pipe, the tools taking turns, each run checked",
            "for what it must print or change; median in milliseconds (90th percentile in parentheses) over",
            "\(runs) runs of each (import: \(importRuns)). Ratios below 1 mean Quire is faster.",
            "",
            "| measure | quire (ms, median) | task (ms, median) | ratio quire ÷ task |",
            "| --- | ---: | ---: | ---: |",
        ]
        for measurement in TaskwarriorBenchMeasurement.allCases {
            guard let pair = results.pairs[measurement] else { continue }
            lines.append(
                "| \(measurement.label) | \(format(pair.quire.median)) (\(format(pair.quire.p90)))"
                    + " | \(format(pair.task.median)) (\(format(pair.task.p90)))"
                    + " | \(String(format: "%.2f", pair.quire.median / pair.task.median)) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
