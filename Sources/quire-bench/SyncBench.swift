import ArgumentParser

/// Placeholder until the Sync benchmarks land.
struct SyncBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sync", abstract: "Sync benchmarks (not yet written).")

    func run() async throws {
        throw ValidationError("the sync benchmarks are not written yet")
    }
}
