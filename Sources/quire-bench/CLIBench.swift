import ArgumentParser

/// Placeholder until the CLI benchmarks land.
struct CLIBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cli", abstract: "CLI benchmarks (not yet written).")

    func run() async throws {
        throw ValidationError("the cli benchmarks are not written yet")
    }
}
