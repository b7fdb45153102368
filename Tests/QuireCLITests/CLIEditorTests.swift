import Foundation
import QuireTestSupport
import Testing

/// `quire edit` with no field options runs the person's editor the way the app does: it must
/// hear a resize and Ctrl-C, and Ctrl-C in it must not end quire and lose the save.
@Suite struct CLIEditorTests {
    /// A store with one item, and an editor made of a shell script `body` (the file is `$1`).
    static func store(with title: String, editor body: (_ home: String) -> String) throws -> (
        QuireCLI, id: String, editor: String
    ) {
        let cli = try QuireCLI()
        let id = try cli.add(title)
        let editor = cli.home + "/editor.sh"
        try ("#!/bin/sh\n" + body(cli.home) + "\n").write(toFile: editor, atomically: true, encoding: .utf8)
        chmod(editor, 0o755)
        return (cli, id, editor)
    }

    @Test func theEditorStartsWithNoSignalBlockedOrIgnored() throws {
        let (cli, id, editor) = try Self.store(with: "Resize me") { home in
            """
            grep -E '^Sig(Blk|Ign):' /proc/self/status > '\(home)/signals'
            sed -i 's/^title: .*/title: Resized/' "$1"
            """
        }
        defer { cli.remove() }
        let report = cli.home + "/signals"
        let edited = try cli.run(["edit", id], environment: ["VISUAL": editor])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout.hasPrefix("edited: "))

        var masks: [String: UInt64] = [:]
        for line in try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            masks[String(parts[0])] = UInt64(parts[1].trimmingCharacters(in: .whitespaces), radix: 16)
        }
        #expect(masks["SigBlk"] == 0)
        let defaults = [SIGWINCH, SIGINT, SIGQUIT, SIGTERM, SIGTSTP].reduce(UInt64(0)) { $0 | 1 << (UInt64($1) - 1) }
        #expect(masks["SigIgn"].map { $0 & defaults } == 0)
    }

    /// The terminal sends Ctrl-C to quire as well as to the editor; quire waits on and applies
    /// what the person then saves.
    @Test func ctrlCInTheEditorLeavesQuireWaiting() throws {
        // The editor waits (up to ten seconds) for the test to say which process is quire.
        let (cli, id, editor) = try Self.store(with: "Before") { home in
            """
            n=0
            while [ ! -s '\(home)/quire.pid' ] && [ $n -lt 500 ]; do sleep 0.02; n=$((n + 1)); done
            kill -INT "$(cat '\(home)/quire.pid')"
            sed -i 's/^title: .*/title: After Ctrl-C/' "$1"
            """
        }
        defer { cli.remove() }
        let pidFile = cli.home + "/quire.pid"
        let (process, capture) = try cli.start(["edit", id], extraEnvironment: ["VISUAL": editor])
        try String(process.processIdentifier).write(toFile: pidFile, atomically: true, encoding: .utf8)
        let edited = QuireCLI.collect(process, capture)
        #expect(process.terminationReason == .exit)
        #expect(edited.status == 0, "\(edited.stderr)")
        let shown = try #require(try cli.json("show", id, "--json") as? [String: Any])
        #expect(shown["title"] as? String == "After Ctrl-C")
    }
}
