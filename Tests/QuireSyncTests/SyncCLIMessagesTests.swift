import Foundation
import QuireTestSupport
import Testing

/// What the sync commands say to a person: `quire remote set` checks the token when the server
/// answers (a refused token is said at once and saved all the same; an unreachable server is no
/// error), and `quire sync` shows its progress on a terminal.
@Suite struct SyncCLIMessagesTests {
    static func makeHome() throws -> String { try QuireBinary.makeHome("cli-messages") }

    @Test func aRefusedTokenIsSaidAndStillSaved() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let home = try Self.makeHome()
        defer { try? FileManager.default.removeItem(atPath: home) }

        let good = try await QuireBinary.execute(["remote", "set", server.baseURL, "--token", token], home: home)
        #expect(good.status == 0 && good.stderr.isEmpty, "\(good.stderr)")

        let wrong = try await QuireBinary.execute(
            ["remote", "set", server.baseURL, "--token", "not-a-token"], home: home)
        #expect(wrong.status == 0)
        #expect(wrong.stdout.hasPrefix("Remote set to \(server.baseURL)"))
        #expect(wrong.stderr.hasPrefix("quire: the server refused this token (401)"), "\(wrong.stderr)")
        let credentials = try String(contentsOfFile: home + "/credentials", encoding: .utf8)
        #expect(credentials.contains("not-a-token"), "saved all the same")

        let offline = try await QuireBinary.execute(
            ["remote", "set", "http://127.0.0.1:1", "--token", "x"], home: home)
        #expect(offline.status == 0 && offline.stderr.isEmpty, "\(offline.stderr)")
    }

    /// On a terminal `quire sync` shows how far its push is on standard error, and wipes the
    /// line before its own; in a pipe (every other test here) it shows nothing.
    @Test func syncShowsProgressOnATerminal() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let home = try Self.makeHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(
            try await QuireBinary.execute(["remote", "set", server.baseURL, "--token", token], home: home).status == 0)
        #expect(try await QuireBinary.execute(["add", "One"], home: home).status == 0)
        let quire = try #require(QuireBinary.path)
        var environment = QuireBinary.environment(home: home)
        environment["TERM"] = "xterm"
        let shown = try ChildRun.run(
            "/usr/bin/script", ["-qefc", "'\(quire)' sync", "/dev/null"], environment: environment, mergingOutput: true)
        #expect(shown.status == 0, "\(shown.stdout)")
        #expect(shown.stdout.contains("pushing 1 of 1 changes"), "\(shown.stdout.debugDescription)")
        #expect(shown.stdout.contains("\r\u{1B}[KSynced · pushed 1"), "\(shown.stdout.debugDescription)")
    }
}
