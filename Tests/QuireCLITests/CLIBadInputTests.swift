import Foundation
import GRDB
import Testing

/// Bad input: one clear line on stderr, SPEC's exit code, and no change to the store.
@Suite struct CLIBadInputTests {
    /// Runs a command that must fail with `status`, checks the single stderr line mentions
    /// `message`, and that the store did not change.
    func expectRefusal(
        _ cli: QuireCLI, _ arguments: [String], stdin: String? = nil, status: Int32, message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try cli.snapshot()
        let result = try cli.run(arguments, stdin: stdin)
        #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.oneErrorLine, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.hasPrefix("quire: ") && result.stderr.contains(message), "\(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(try cli.snapshot() == before, "\(arguments) changed the store", sourceLocation: sourceLocation)
    }

    @Test func badValuesAreRefused() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let id = try cli.add("Existing", "--task")
        let note = try cli.add("A note")
        try expectRefusal(cli, ["add", "  "], status: 1, message: "the title is empty")
        try expectRefusal(cli, ["add", "x", "--due", "2026-02-30"], status: 1, message: "no such day: 2026-02-30")
        try expectRefusal(cli, ["add", "x", "--priority", "urgent"], status: 1, message: "invalid priority 'urgent'")
        try expectRefusal(
            cli, ["edit", id, "--due", "someday"], status: 1,
            message: "'someday' is not a date: use YYYY-MM-DD, today, tomorrow")
        try expectRefusal(cli, ["edit", id, "--title", ""], status: 1, message: "the title is empty")
        let huge = String(repeating: "a", count: (1 << 20) + 1)
        try expectRefusal(
            cli, ["add", "big", "--body", "-"], stdin: huge, status: 1, message: "larger than 1048576 bytes")
        try expectRefusal(
            cli, ["edit", id, "--body", "-"], stdin: huge, status: 1, message: "larger than 1048576 bytes")
        try expectRefusal(cli, ["done", id, note], status: 1, message: "is a note; only tasks")
        try expectRefusal(cli, ["add"], status: 1, message: "the title is missing")
        try expectRefusal(cli, ["list", "--bogus"], status: 1, message: "Unknown option '--bogus'")
        try expectRefusal(
            cli, ["list", "--open", "--done"], status: 1, message: "--open and --done cannot be used together")
        try expectRefusal(
            cli, ["list", "--tasks", "--notes"], status: 1, message: "--tasks and --notes cannot be used together")
        try expectRefusal(cli, ["frobnicate"], status: 1, message: "there is no command 'frobnicate'")
        try expectRefusal(cli, ["show", id, "extra"], status: 1, message: "'extra' was not expected here")
        try expectRefusal(cli, ["list", "--limit", "-1"], status: 1, message: "--limit must be 0 or more")
        try expectRefusal(cli, ["search", "x", "--limit", "-1"], status: 1, message: "--limit must be 0 or more")
        try expectRefusal(cli, ["add", "x", "--due"], status: 1, message: "--due needs a value: date")
    }

    @Test func idPrefixesThatAreUnknownAmbiguousOrMalformed() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let file = cli.home + "/two.json"
        try """
        [{"id": "0193a9d2-7fff-7000-8000-00000000abcd", "title": "one", "kind": "task"},
         {"id": "0193a9d2-7fff-7000-8000-00000000abce", "title": "two", "kind": "task"}]
        """.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try cli.run("import", file).status == 0)
        try expectRefusal(cli, ["show", "ffff"], status: 2, message: "no item has the id 'ffff'")
        try expectRefusal(
            cli, ["done", "0193a9d2-7fff-7000-8000-00000000abcd", "ffffffff"], status: 2, message: "'ffffffff'")
        try expectRefusal(cli, ["done", "0193"], status: 1, message: "is ambiguous")
        try expectRefusal(cli, ["rm", "019"], status: 1, message: "at least 4")
        try expectRefusal(cli, ["edit", "milk!", "--title", "x"], status: 1, message: "is not an item id")
        #expect(try cli.run("done", "0193a9d27fff70008000000000").status == 1, "still ambiguous without hyphens")
        #expect(try cli.run("done", "0193a9d27fff7000800000000000abcd").status == 0)
    }

    @Test func malformedImportsNameTheEntryAndImportNothing() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        _ = try cli.add("Existing")
        let bad = cli.home + "/bad.json"
        try "[{\"title\": \"fine\"}, {\"title\": \"also fine\"}, {\"title\": \"x\", \"due\": \"31/12/2026\"}]"
            .write(toFile: bad, atomically: true, encoding: .utf8)
        try expectRefusal(cli, ["import", bad], status: 1, message: "entry 3: invalid date '31/12/2026'")
        let broken = cli.home + "/broken.json"
        try "[\n  {\"title\": \"fine\"},\n  {\"title\": \"x\",,}\n]".write(
            toFile: broken, atomically: true, encoding: .utf8)
        try expectRefusal(cli, ["import", broken], status: 1, message: "line 3")
        let tw = cli.home + "/tw.json"
        try
            "{\"description\":\"ok\",\"uuid\":\"11111111-2222-4333-8444-555555555555\"}\n{\"description\":\"bad\",\"priority\":\"X\"}\n"
            .write(toFile: tw, atomically: true, encoding: .utf8)
        try expectRefusal(
            cli, ["import", tw, "--format", "taskwarrior"], status: 1, message: "line 2: unknown priority 'X'")
        let folder = cli.home + "/md"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "---\ntitle: ok\n---\n".write(toFile: folder + "/a.md", atomically: true, encoding: .utf8)
        try "---\ntitle: bad\ndone: maybe\n---\n".write(toFile: folder + "/b.md", atomically: true, encoding: .utf8)
        try expectRefusal(cli, ["import", folder], status: 1, message: "b.md line 3: 'done' must be true or false")
        try expectRefusal(cli, ["import", cli.home + "/missing.json"], status: 2, message: "no file or folder")
    }

    @Test func anUnwritableDataDirectoryIsExit6() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let blocker = cli.home + "/file"
        try "not a folder".write(toFile: blocker, atomically: true, encoding: .utf8)
        for home in [blocker, blocker + "/inside"] {
            let result = try cli.run(["add", "x"], environment: ["QUIRE_HOME": home])
            #expect(result.status == 6 && result.oneErrorLine, "\(result.stderr)")
            #expect(result.stderr.contains(blocker))
        }
        if getuid() != 0 {
            let locked = cli.home + "/locked"
            try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
            chmod(locked, 0o500)
            defer { chmod(locked, 0o700) }
            let result = try cli.run(["add", "x"], environment: ["QUIRE_HOME": locked])
            #expect(result.status == 6 && result.stderr.contains("not writable"))
        }
    }

    @Test func aFileThatIsNotSQLiteIsLeftByteForByte() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let content = Data("my shopping list, not a database\n".utf8) + Data(repeating: 7, count: 5000)
        try content.write(to: URL(fileURLWithPath: cli.database))
        for arguments in [["list"], ["add", "x"], ["search", "x"], ["import", "/dev/null"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 6 && result.oneErrorLine, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("not an SQLite database"))
        }
        #expect(fileBytes(cli.database) == content)
        #expect(!FileManager.default.fileExists(atPath: cli.database + "-wal"))
    }

    @Test func aCorruptDatabaseIsExit6AndLeftAlone() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        for index in 0..<200 {
            _ = try cli.run(
                "add", "item \(index) with some words to fill pages", "--body", String(repeating: "body ", count: 50))
        }
        // Fold the WAL into the file, as a clean shutdown does, so the file alone holds the data.
        let queue = try DatabaseQueue(path: cli.database)
        _ = try queue.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        try queue.close()
        try? FileManager.default.removeItem(atPath: cli.database + "-wal")
        try? FileManager.default.removeItem(atPath: cli.database + "-shm")
        var bytes = try #require(fileBytes(cli.database))
        #expect(bytes.count > 40_000)
        // Scribble over the middle pages (b-tree pages of the item table and its indexes).
        for offset in stride(from: 8192, to: bytes.count - 4096, by: 4096) {
            bytes.replaceSubrange(offset + 8..<offset + 200, with: Data(repeating: 0xA5, count: 192))
        }
        try bytes.write(to: URL(fileURLWithPath: cli.database))
        for arguments in [["list", "--all"], ["add", "new"], ["search", "item"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 6 && result.oneErrorLine, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("cannot be used"), "\(result.stderr)")
        }
        #expect(fileBytes(cli.database) == bytes)
    }
}
