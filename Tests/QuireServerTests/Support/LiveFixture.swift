import Foundation
import QuireTestSupport

/// A real `quire-server` on a fresh SQLite database in a folder of its own, with one user
/// (ann) and her token: the set-up of every live test of issue 33.
struct LiveFixture: Sendable {
    let folder: URL
    let db: String
    let token: String
    let server: ServerProcess

    /// Creates the folder and the user, then serves with `arguments` after `--db`.
    static func start(_ arguments: [String] = []) async throws -> LiveFixture {
        let folder = try ServerProcessTests.temporaryFolder()
        let db = folder.appendingPathComponent("server.db").path
        let added = try ServerProcess.command(["user", "add", "ann", "--db", db])
        guard added.status == 0 else { throw ChildProcessError("user add failed: \(added.err)") }
        let server = try await ServerProcess(serve: ["--db", db] + arguments)
        return LiveFixture(
            folder: folder, db: db, token: added.out.trimmingCharacters(in: .whitespacesAndNewlines), server: server)
    }

    /// Stops the server and removes the folder.
    func finish() async {
        await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
