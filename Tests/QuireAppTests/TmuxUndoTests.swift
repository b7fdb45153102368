import Foundation
import QuireCore
import QuireTestSupport
import Testing

/// `u` in a real terminal takes back what was done before the app last quit, and what the CLI
/// did, because the list of actions is the store's history.
@Suite(.serialized, Tmux.required) struct TmuxUndoTests {
    typealias Setup = TmuxEndToEndTests.Setup

    @Test func undoSurvivesARestartAndCoversTheCLI() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        let first = try Tmux(script: setup.script(), directory: setup.home)
        #expect(first.waitFor { $0.contains("Nothing here yet") })
        first.keys("a")
        #expect(first.waitFor { $0.contains("New note") })
        first.type("Packing list")
        first.keys("C-s")
        #expect(first.waitFor { $0.contains("Created note") })
        first.keys("q")
        #expect(first.waitFor { $0.contains("quire-exited-0") })

        // Between the two runs the CLI renames it.
        #expect(try setup.cli("edit", try shortID(setup), "--title", "Packing list for Oslo").status == 0)

        let second = try Tmux(script: setup.script(), directory: setup.home)
        #expect(second.waitFor { $0.contains("Packing list for Oslo") })
        second.keys("u")
        #expect(second.waitFor { $0.contains("Undone: change to “Packing list”") })
        #expect(try setup.titles() == ["Packing list"])
        second.keys("u")
        #expect(second.waitFor { $0.contains("Undone: creation of “Packing list”") && $0.contains("Nothing here yet") })
        second.keys("u")
        #expect(second.waitFor { $0.contains("Nothing to undo") })
        second.keys("q")
        #expect(second.waitFor { $0.contains("quire-exited-0") })
    }

    @Test func theHistoryViewRestoresAnOlderVersion() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        #expect(try setup.cli("add", "Draft plan", "--body", "first idea").status == 0)
        #expect(try setup.cli("edit", try shortID(setup), "--body", "second idea").status == 0)
        let tmux = try Tmux(script: setup.script(), directory: setup.home)
        #expect(tmux.waitFor { $0.contains("Draft plan") })
        tmux.keys("h")
        #expect(tmux.waitFor { $0.contains("History “Draft plan” · 2 versions") && $0.contains("second idea") })
        tmux.keys("j")
        #expect(tmux.waitFor { $0.contains("first idea") })
        tmux.keys("r")
        #expect(tmux.waitFor { $0.contains("Restored the version of") && $0.contains("3 versions") })
        #expect(try setup.cli("show", try shortID(setup)).output.contains("first idea"))
        tmux.keys("q")
        #expect(tmux.waitFor { !$0.contains("History") })
        tmux.keys("q")
        #expect(tmux.waitFor { $0.contains("quire-exited-0") })
    }

    private func shortID(_ setup: Setup) throws -> String {
        let listed = try setup.cli("list")
        return String(listed.output.split(separator: " ").first ?? "")
    }
}
