import ArgumentParser

/// Benchmarks of whole processes and in-process paths, run by `make bench` on a release build.
///
/// Each subcommand measures one area and prints a Markdown fragment for BENCHMARKS.md.
@main
struct QuireBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quire-bench",
        abstract: "Measure Quire's speed at 1k, 10k and 100k items.",
        subcommands: [
            CLIBench.self, CryptoBench.self, ImportBench.self, TUIBench.self, SyncBench.self, LiveBench.self,
            TaskwarriorBench.self,
        ]
    )
}
