import Foundation
import QuireTestSupport

/// A real `quire-server` on a fresh SQLite database in a folder of its own, with its users
/// (ann first) and their tokens: the set-up of the live and end-to-end tests.
struct LiveFixture: Sendable {
    let folder: URL
    let db: String
    /// Each user's token, by name.
    let tokens: [String: String]
    let server: ServerProcess

    /// Ann's token.
    var token: String { tokens["ann"] ?? "" }

    /// A path in the fixture's folder.
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Creates the folder and the users, then serves with `arguments` after `--db`: on a port
    /// the kernel does not hand out when `restartable` (the test starts it again on that port;
    /// `RestartablePort`).
    static func start(
        _ arguments: [String] = [], users: [String] = ["ann"], restartable: Bool = false
    ) async throws -> LiveFixture {
        let folder = try ServerProcessTests.temporaryFolder()
        let db = folder.appendingPathComponent("server.db").path
        var tokens: [String: String] = [:]
        for user in users {
            let added = try ServerProcess.command(["user", "add", user, "--db", db])
            guard added.status == 0 else { throw ChildProcessError("user add failed: \(added.err)") }
            tokens[user] = added.out.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let server =
            restartable
            ? try await ServerProcess.restartable(serve: ["--db", db] + arguments)
            : try await ServerProcess(serve: ["--db", db] + arguments)
        return LiveFixture(folder: folder, db: db, tokens: tokens, server: server)
    }

    /// Stops the server and removes the folder.
    func finish() async {
        await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
