import ArgumentParser

/// Placeholder until the TUI benchmarks land.
struct TUIBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tui", abstract: "TUI benchmarks (not yet written).")

    func run() async throws {
        throw ValidationError("the tui benchmarks are not written yet")
    }
}
