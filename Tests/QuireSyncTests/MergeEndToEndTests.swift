import Foundation
import QuireCore
import Testing

@testable import QuireSync

/// The body merges that once lost or repeated lines, each through the built `quire`, two
/// devices and a real server: both devices edit one body, the second one to sync merges.
@Suite(.serialized) struct MergeEndToEndTests {
    /// Two devices of one person on a fresh server, and an item both have synced.
    struct Setup {
        let server: SyncTestServer
        let first: String
        let second: String
        let id: String

        /// The first device writes `remote` and syncs; the second writes `local` and syncs,
        /// merging the two. Returns the second device's sync.
        func edit(local: String, remote: String) async throws -> CLIRun {
            #expect(try await QuireBinary.execute(["edit", id, "--body", remote], home: first).status == 0)
            #expect(try await QuireBinary.execute(["edit", id, "--body", local], home: second).status == 0)
            #expect(try await QuireBinary.execute(["sync"], home: first).status == 0)
            return try await QuireBinary.execute(["sync"], home: second)
        }

        func body(on home: String) async throws -> String {
            let shown = try await QuireBinary.execute(["show", id, "--json"], home: home)
            return try #require(try shown.object()["body"] as? String, "\(shown.stdout)")
        }

        /// Both devices' bodies after the merge has gone out and come back.
        func converged() async throws -> (first: String, second: String) {
            #expect(try await QuireBinary.execute(["sync"], home: second).status == 0)
            #expect(try await QuireBinary.execute(["sync"], home: first).status == 0)
            try server.expectNoContentLeaks()
            return (try await body(on: first), try await body(on: second))
        }

        func remove() async {
            await server.stop()
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
    }

    func setUp(base: String, _ encryption: AccountEncryption) async throws -> Setup {
        let (server, token) = try await SyncTestServer.running(user: "ann", encryption)
        var homes: [String] = []
        for _ in 0..<2 {
            let home = NSTemporaryDirectory() + "quire-merge-e2e-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            let remote = try await QuireBinary.execute(["remote", "set", server.baseURL, "--token", token], home: home)
            #expect(remote.status == 0, "\(remote.stderr)")
            try server.handKeys(toHome: home)
            homes.append(home)
        }
        let added = try await QuireBinary.execute(["add", "List", "--body", base], home: homes[0])
        #expect(added.status == 0, "\(added.stderr)")
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await QuireBinary.execute(["sync"], home: homes[0]).status == 0)
        #expect(try await QuireBinary.execute(["sync"], home: homes[1]).status == 0)
        return Setup(server: server, first: homes[0], second: homes[1], id: id)
    }

    /// Merges cleanly and both devices end with `expected`, byte for byte.
    func expectCleanMerge(
        base: String, local: String, remote: String, expected: String, _ encryption: AccountEncryption
    ) async throws {
        let setup = try await setUp(base: base, encryption)
        let sync = try await setup.edit(local: local, remote: remote)
        #expect(sync.status == 0, "a clean merge needs no review: \(sync.stderr)")
        let (first, second) = try await setup.converged()
        #expect(Array(second.utf8) == Array(expected.utf8), "merged \(second.debugDescription)")
        #expect(Array(first.utf8) == Array(expected.utf8), "the other device got \(first.debugDescription)")
        await setup.remove()
    }

    @Test(arguments: AccountEncryption.allCases)
    func aLineBothDeletedFromARunIsDeletedOnce(_ encryption: AccountEncryption) async throws {
        try await expectCleanMerge(
            base: "b\na\na\n", local: "L\nb\na\n", remote: "b\na\n", expected: "L\nb\na\n", encryption)
    }

    @Test(arguments: AccountEncryption.allCases)
    func aRunShortenedOnBothSidesWithoutAFinalNewlineKeepsItsOtherLines(_ encryption: AccountEncryption) async throws {
        try await expectCleanMerge(
            base: "a\nb\nb\nb", local: "L1 new\na\nb\nb", remote: "a\nb\nb",
            expected: "L1 new\na\nb\nb", encryption)
    }

    @Test(arguments: AccountEncryption.allCases)
    func aLineBothWroteIsWrittenOnce(_ encryption: AccountEncryption) async throws {
        try await expectCleanMerge(
            base: "# Shopping\n- milk\n\n- eggs\n",
            local: "# Shopping\n- oat milk\n\n- bread\n- eggs\n",
            remote: "# Shopping\n- milk\n\n- bread\n- eggs\n",
            expected: "# Shopping\n- oat milk\n\n- bread\n- eggs\n", encryption)
    }

    @Test(arguments: AccountEncryption.allCases)
    func reEncodedAccentsAreAChange(_ encryption: AccountEncryption) async throws {
        try await expectCleanMerge(
            base: "caf\u{E9}\nend\n", local: "cafe\u{301}\nend\n", remote: "caf\u{E9}\nend\nmore\n",
            expected: "cafe\u{301}\nend\nmore\n", encryption)
    }

    /// One side drops the final newline, the other appends a line: the two cannot both hold,
    /// so the person is asked; keeping either side keeps the other side's other changes.
    @Test(arguments: AccountEncryption.allCases)
    func aDroppedFinalNewlineAgainstAppendedLinesAsksForReview(_ encryption: AccountEncryption) async throws {
        let setup = try await setUp(base: "a\nb\n", encryption)
        let sync = try await setup.edit(local: "a\nb", remote: "a\nb\nc\n")
        #expect(sync.status == 5, "needs review: \(sync.stderr)")
        #expect(
            try await QuireBinary.execute(["resolve", setup.id, "--keep", "local"], home: setup.second).status == 0)
        let (first, second) = try await setup.converged()
        #expect(second == "a\nb" && first == "a\nb", "local kept: \(second.debugDescription)")
        await setup.remove()
    }

    /// Base `a`–`f`, one per line: both sides rewrite `e`, the remote also appends a line.
    func resolveCase(keeping side: String, _ encryption: AccountEncryption) async throws -> (
        first: String, second: String
    ) {
        let setup = try await setUp(base: "a\nb\nc\nd\ne\nf", encryption)
        let sync = try await setup.edit(
            local: "a\nb\nc\nd\nE-laptop\nf", remote: "a\nb\nc\nd\nE-phone\nf\ng-phone-added")
        #expect(sync.status == 5, "both rewrote e: \(sync.stderr)")
        let resolve = try await QuireBinary.execute(["resolve", setup.id, "--keep", side], home: setup.second)
        #expect(resolve.status == 0, "\(resolve.stderr)")
        let bodies = try await setup.converged()
        await setup.remove()
        return bodies
    }

    @Test(arguments: AccountEncryption.allCases)
    func keepingLocalKeepsTheLineOnlyTheRemoteAppended(_ encryption: AccountEncryption) async throws {
        let (first, second) = try await resolveCase(keeping: "local", encryption)
        #expect(second == "a\nb\nc\nd\nE-laptop\nf\ng-phone-added")
        #expect(first == second)
    }

    @Test(arguments: AccountEncryption.allCases)
    func keepingBothNeverRepeatsAnUnchangedLine(_ encryption: AccountEncryption) async throws {
        let (first, second) = try await resolveCase(keeping: "both", encryption)
        #expect(second == "a\nb\nc\nd\nE-laptop\nE-phone\nf\ng-phone-added")
        #expect(first == second)
    }
}
