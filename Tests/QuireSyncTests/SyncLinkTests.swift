import Foundation
import QuireTestSupport
import Testing

/// Links across devices (SPEC: Links): a rename made on one device keeps the links written on
/// another working, there and on a device that first hears of the item after the rename.
@Suite(.serialized) struct SyncLinkTests {
    func makeHome() throws -> String { try QuireBinary.makeHome("link-sync") }

    func quire(_ home: String, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> CLIRun
    {
        try await QuireBinary.expectingSuccess(arguments, home: home, sourceLocation: sourceLocation)
    }

    /// The ids of the items a link list reaches, nil for a link that reaches none.
    func linkedIDs(_ home: String, _ id: String) async throws -> [String?] {
        let run = try await quire(home, "links", id, "--json")
        let links = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], "\(run.stdout)")
        return links.map { ($0["item"] as? [String: Any])?["id"] as? String }
    }

    @Test func aRenameOnOneDeviceKeepsLinksWorkingOnEveryDevice() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let (a, b, c) = (try makeHome(), try makeHome(), try makeHome())
        defer { for home in [a, b, c] { try? FileManager.default.removeItem(atPath: home) } }
        for home in [a, b, c] { _ = try await quire(home, "remote", "set", server.baseURL, "--token", token) }

        let target = try await quire(a, "add", "Trip plan").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let note = try await quire(a, "add", "Packing", "--body", "see [[Trip plan]]\n")
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try await quire(a, "sync")
        _ = try await quire(b, "sync")
        // Device A, offline, writes a second link by the title while B renames the item.
        let offline = try await quire(a, "add", "Budget", "--body", "costs of [[trip plan]]\n")
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try await quire(b, "edit", target, "--title", "Summer trip")
        _ = try await quire(b, "sync")
        _ = try await quire(a, "sync")
        _ = try await quire(b, "sync")
        _ = try await quire(c, "sync")

        for home in [a, b, c] {
            #expect(try await linkedIDs(home, note) == [target], "\(home == a ? "A" : home == b ? "B" : "C")")
            let shown = try await quire(home, "show", note, "--json")
            #expect(shown.stdout.contains("see [[Summer trip]]"), "the renaming device rewrote the link")
        }
        // The link A wrote before it heard of the rename reaches the item where the old title
        // was known.
        #expect(try await linkedIDs(a, offline) == [target])
        #expect(try await linkedIDs(b, offline) == [target])
        let back = try await quire(b, "list", "links:\(target)", "--json")
        #expect(back.stdout.contains(note) && back.stdout.contains(offline), "\(back.stdout)")
    }
}
