import Foundation
import QuireTestSupport
import Testing

/// Two terminals on one item: `quire edit` in an editor while another `quire edit` changes the
/// item. The editor's save merges with the change made while it was open (SPEC: "Every write
/// merges with what changed since it began"); where both changed the same lines, both are kept
/// and the item needs review. Real processes on one store, no server.
@Suite struct CLIConcurrentEditTests {
    /// Starts `quire edit ID` with an editor that says when it has the file open, waits for the
    /// test to change the item, then runs `change` on the file (`$1`).
    struct EditorOpen {
        let cli: QuireCLI
        let process: SpawnedProcess
        let child: ChildRun

        init(_ cli: QuireCLI, editing id: String, change: String) throws {
            let editor = cli.home + "/editor.sh"
            let script = """
                #!/bin/sh
                touch '\(cli.home)/opened'
                n=0
                while [ ! -e '\(cli.home)/go' ] && [ $n -lt 1500 ]; do sleep 0.02; n=$((n + 1)); done
                \(change)
                """
            try script.write(toFile: editor, atomically: true, encoding: .utf8)
            chmod(editor, 0o755)
            (process, child) = try cli.start(["edit", id], extraEnvironment: ["VISUAL": editor])
            self.cli = cli
            #expect(
                waitUntil(timeout: asyncWorkDeadline) { FileManager.default.fileExists(atPath: cli.home + "/opened") })
        }

        /// Lets the editor save and quit; the `quire edit` that ran it.
        func save() -> QuireCLI.Result {
            _ = FileManager.default.createFile(atPath: cli.home + "/go", contents: nil)
            return QuireCLI.collect(process, child)
        }
    }

    func body(_ cli: QuireCLI, _ id: String) throws -> String {
        let shown = try #require(try cli.json("show", id, "--json") as? [String: Any])
        return try #require(shown["body"] as? String)
    }

    /// The repro: the editor appends a line while another terminal puts one first.
    @Test func aSaveMergesWithALineAddedWhileTheEditorWasOpen() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let id = try cli.add("Packing", "--body", "passport\ncharger\nsocks\n")
        let editor = try EditorOpen(cli, editing: id, change: "echo toothbrush >> \"$1\"")
        let other = try cli.run("edit", id, "--body", "umbrella\npassport\ncharger\nsocks\n")
        #expect(other.status == 0, "\(other.stderr)")
        let saved = editor.save()
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stdout.contains("merged with a change made while the editor was open"), "\(saved.stdout)")
        #expect(try body(cli, id) == "umbrella\npassport\ncharger\nsocks\ntoothbrush\n")
        #expect((try cli.json("conflicts", "--json") as? [Any])?.isEmpty == true)
    }

    /// Both change the same line: nothing is lost, the item needs review, exit 5; each side can
    /// then be chosen, and the other side's own changes stay.
    @Test func aSaveThatMeetsTheSameLineKeepsBothForReview() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let id = try cli.add("Packing", "--body", "passport\ncharger\nsocks\n")
        let editor = try EditorOpen(cli, editing: id, change: "sed -i 's/^charger$/phone charger/' \"$1\"")
        #expect(try cli.run("edit", id, "--body", "passport\nusb charger\nsocks\nhat\n").status == 0)
        let saved = editor.save()
        #expect(saved.status == 5, "\(saved.stdout) \(saved.stderr)")
        #expect(saved.oneErrorLine && saved.stderr.contains("both versions are kept"), "\(saved.stderr)")

        let kept = try body(cli, id)
        #expect(kept.contains("phone charger") && kept.contains("usb charger") && kept.contains("hat"), "\(kept)")
        let conflicts = try #require(try cli.json("conflicts", "--json") as? [[String: Any]])
        #expect(conflicts.count == 1)
        let listed = try cli.run("list", "--needs-review")
        #expect(listed.stdout.contains("Packing"), "\(listed.stdout)")

        #expect(try cli.run("resolve", id, "--keep", "local").status == 0)
        #expect(try body(cli, id) == "passport\nphone charger\nsocks\nhat\n")
        #expect((try cli.json("conflicts", "--json") as? [Any])?.isEmpty == true)
        // The resolution is an ordinary change: undo brings both back.
        #expect(try cli.run("undo").status == 0)
        let undone = try body(cli, id)
        #expect(undone.contains("phone charger") && undone.contains("usb charger"), "\(undone)")
    }

    @Test func keepingTheOtherSideKeepsItAndDropsOnlyTheContestedLine() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let id = try cli.add("Packing", "--body", "passport\ncharger\nsocks\n")
        let editor = try EditorOpen(
            cli, editing: id, change: "sed -i 's/^passport$/## Trip\\npassport/; s/^charger$/phone charger/' \"$1\"")
        #expect(try cli.run("edit", id, "--body", "passport\nusb charger\nsocks\n").status == 0)
        #expect(editor.save().status == 5)
        #expect(try cli.run("resolve", id, "--keep", "remote").status == 0)
        // The editor's change that met nothing (the heading) stays; the contested line is the other's.
        #expect(try body(cli, id) == "## Trip\npassport\nusb charger\nsocks\n")
    }
}
