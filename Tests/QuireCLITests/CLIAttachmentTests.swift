import Foundation
import Testing

/// `quire attach`, `attachments`, `attachment get` and `detach` (SPEC: Notes, tasks, links and
/// attachments) on the real binary: files stored once by content, given back byte for byte,
/// and every mistake one line with nothing changed.
@Suite struct CLIAttachmentTests {
    /// A file of `count` pseudo-random bytes (different for each seed) in the CLI's home.
    func makeFile(_ cli: QuireCLI, _ name: String, count: Int, seed: UInt8) throws -> String {
        let path = cli.home + "/in-" + name
        var bytes = [UInt8](repeating: 0, count: count)
        var state = UInt32(seed) &* 2_654_435_761 &+ 1
        for index in bytes.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            bytes[index] = UInt8(truncatingIfNeeded: state >> 24)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The files in the attachment store (`attachments/ab/abcd…`).
    func storedFiles(_ cli: QuireCLI) -> [String] {
        let root = cli.home + "/attachments"
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return folders.filter { $0.count == 2 }.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)) ?? []).sorted()
        }
    }

    @Test func attachedFilesAreStoredOnceAndComeBackByteForByte() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let trip = try cli.add("Trip to Lyon")
        let budget = try cli.add("Budget")
        _ = try cli.add("Unrelated")
        let tickets = try makeFile(cli, "tickets.pdf", count: 3_000_000, seed: 1)
        let photo = try makeFile(cli, "photo of the sink.jpg", count: 1000, seed: 2)

        let attached = try cli.run("attach", trip, tickets, photo)
        #expect(attached.status == 0, "\(attached.stderr)")
        #expect(attached.stdout.contains("attached: in-tickets.pdf (2.9 MB)"), "\(attached.stdout)")
        #expect(try cli.run("attach", budget, tickets).status == 0)
        #expect(try cli.run("attach", trip, tickets).status == 0, "attaching again replaces, by name")
        #expect(storedFiles(cli).count == 2, "the same content on two items is stored once: \(storedFiles(cli))")

        let listed = try #require(try cli.json("attachments", trip, "--json") as? [[String: Any]])
        #expect(listed.map { $0["name"] as? String } == ["in-photo of the sink.jpg", "in-tickets.pdf"])
        #expect(listed.last?["size"] as? Int == 3_000_000)
        #expect(listed.last?["mediaType"] as? String == "application/pdf")
        #expect(listed.first?["mediaType"] as? String == "image/jpeg")
        #expect(listed.last?["state"] as? String == "waiting-to-upload", "no upload yet: \(listed)")

        let shown = try #require(try cli.json("show", trip, "--json") as? [String: Any])
        let references = try #require(shown["attachments"] as? [[String: Any]])
        #expect(references.count == 2 && (references.last?["hash"] as? String)?.count == 64, "\(references)")

        #expect(Set(try cli.listedIDs(["has:attachment"])) == [trip, budget])

        let saved = cli.home + "/out.pdf"
        let got = try cli.run("attachment", "get", trip, "in-tickets.pdf", "--output", saved)
        #expect(got.status == 0, "\(got.stderr)")
        #expect(fileBytes(saved) == fileBytes(tickets), "the bytes come back as they went in")
        let notThere = try cli.run("attachment", "get", budget, "in-photo of the sink.jpg", "--output", "-")
        #expect(notThere.status == 2 && notThere.oneErrorLine, "budget has no photo: \(notThere.stderr)")
        let notes = cli.home + "/packing list.txt"
        try "passport\ncharger\n".write(toFile: notes, atomically: true, encoding: .utf8)
        #expect(try cli.run("attach", trip, notes).status == 0)
        let piped = try cli.run("attachment", "get", trip, "packing list.txt", "--output", "-")
        #expect(piped.status == 0 && piped.stdout == "passport\ncharger\n", "to stdout alone: \(piped)")
    }

    @Test func mistakesAreOneLineAndChangeNothing() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let item = try cli.add("Receipts")
        let file = try makeFile(cli, "r.pdf", count: 100, seed: 3)
        #expect(try cli.run("attach", item, file).status == 0)
        let before = try cli.snapshot()

        let missing = try cli.run("attach", item, file, cli.home + "/nowhere.pdf")
        #expect(missing.status == 2 && missing.oneErrorLine, "\(missing.stderr)")
        #expect(missing.stderr.contains("no such file"), "\(missing.stderr)")
        let directory = try cli.run("attach", item, cli.home)
        #expect(directory.status == 1 && directory.oneErrorLine, "\(directory.stderr)")
        let noItem = try cli.run("attach", "ffffffff", file)
        #expect(noItem.status == 2 && noItem.oneErrorLine, "\(noItem.stderr)")
        let unknownName = try cli.run("detach", item, "other.pdf")
        #expect(unknownName.status == 2 && unknownName.oneErrorLine, "\(unknownName.stderr)")
        #expect(unknownName.stderr.contains("'in-r.pdf'"), "names what there is: \(unknownName.stderr)")
        let getUnknown = try cli.run("attachment", "get", item, "other.pdf")
        #expect(getUnknown.status == 2 && getUnknown.oneErrorLine, "\(getUnknown.stderr)")
        let badFilter = try cli.run("list", "has:attachments")
        #expect(badFilter.status == 1 && badFilter.oneErrorLine, "\(badFilter.stderr)")
        #expect(try cli.snapshot() == before, "nothing changed")
    }

    @Test func detachIsAnEditThatUndoTakesBackAndPurgeFreesTheBytes() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let first = try cli.add("First")
        let second = try cli.add("Second")
        let file = try makeFile(cli, "shared.bin", count: 5000, seed: 4)
        #expect(try cli.run("attach", first, file).status == 0)
        #expect(try cli.run("attach", second, file).status == 0)

        let detached = try cli.run("detach", first, "in-shared.bin")
        #expect(detached.status == 0 && detached.stdout.hasPrefix("detached: in-shared.bin"), "\(detached.stderr)")
        #expect((try cli.json("attachments", first, "--json") as? [Any])?.isEmpty == true)
        #expect(try cli.run("undo").status == 0)
        #expect((try cli.json("attachments", first, "--json") as? [Any])?.count == 1, "undo brings it back")

        #expect(try cli.run("rm", "--purge", "--yes", first).status == 0)
        #expect(storedFiles(cli).count == 1, "the second item still holds the file")
        #expect(try cli.run("rm", "--purge", "--yes", second).status == 0)
        #expect(storedFiles(cli).isEmpty, "nothing refers to it any more: \(storedFiles(cli))")
    }
}
