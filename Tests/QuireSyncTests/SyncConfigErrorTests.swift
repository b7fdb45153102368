import Foundation
import QuireTestSupport
import Testing

/// A `config.toml` Quire cannot read is said, with its line, by every command that reads the
/// remote, and nothing is synced or changed; before, it looked like a device with no remote.
@Suite struct SyncConfigErrorTests {
    func home(config: String) throws -> String {
        let home = NSTemporaryDirectory() + "quire-config-error-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try config.write(toFile: home + "/config.toml", atomically: true, encoding: .utf8)
        return home
    }

    @Test(arguments: [["sync"], ["status"], ["remote", "show"]])
    func aConfigLineQuireCannotReadIsNamed(_ command: [String]) async throws {
        let home = try home(config: "[remote]\nurl = \"http://127.0.0.1:9\"\nurl_typo = \"x\"\n")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let run = try await QuireBinary.execute(command, home: home)
        #expect(run.status == 1, "\(command): \(run.stderr)")
        #expect(run.stderr.hasPrefix("quire: "), "\(run.stderr)")
        #expect(run.stderr.contains("config.toml"), "\(run.stderr)")
        #expect(run.stderr.contains("line 3"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
        #expect(try String(contentsOfFile: home + "/config.toml", encoding: .utf8).contains("url_typo"))
    }

    @Test func aConfigThatReadsStillWorks() async throws {
        let home = try home(config: "# mine\n[remote]\nurl = \"http://127.0.0.1:9\"\n")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let run = try await QuireBinary.execute(["remote", "show"], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("http://127.0.0.1:9"))
    }
}
