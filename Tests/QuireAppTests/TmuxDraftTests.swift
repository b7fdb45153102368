import Foundation
import QuireCore
import QuireStore
import QuireTestSupport
import Testing

/// Text typed in the built-in editor survives the end of the terminal: SIGHUP (a closed window,
/// a dropped ssh session), SIGTERM and the pane being killed, then comes back at the next start.
@Suite(.serialized, Tmux.required) struct TmuxDraftTests {
    typealias Setup = TmuxEndToEndTests.Setup

    /// Starts quire in a pane that records its pid, types a note without saving, ends quire with
    /// `end`, and checks that the next start offers the text back and can save it.
    func typeThenEnd(_ end: (Tmux, Setup, Int32) -> Void, expectedExit: String?, discard: Bool = false) throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        let (tmux, pid) = try setup.startRecordingPID()
        tmux.keys("a")
        #expect(tmux.waitFor { $0.contains("New note") })
        tmux.type("Half-written thought")
        tmux.keys("Down")
        tmux.type("#ideas")
        tmux.keys("Tab")
        tmux.type("not saved yet")
        #expect(tmux.waitFor { $0.contains("not saved yet") })
        end(tmux, setup, pid)
        if let expectedExit { #expect(tmux.waitFor { $0.contains(expectedExit) }) }
        #expect(waitUntil(timeout: 5) { kill(pid, 0) != 0 }, "quire must have ended")
        #expect(try setup.titles().isEmpty, "a draft is not an item")

        // The next start opens the draft in the editor; saving it makes the item.
        let again = try Tmux(script: setup.script(), directory: setup.home)
        #expect(
            again.waitFor {
                $0.contains("Half-written thought") && $0.contains("#ideas") && $0.contains("not saved yet")
            })
        if discard {
            again.keys("Escape")
            #expect(again.waitFor { $0.contains("Discard unsaved changes?") })
            again.keys("y")
            #expect(again.waitFor { $0.contains("Nothing here yet") })
            again.keys("q")
            #expect(again.waitFor { $0.contains("quire-exited-0") })
            #expect(try Self.drafts(setup).isEmpty)
            let third = try Tmux(script: setup.script(), directory: setup.home)
            #expect(third.waitFor { $0.contains("Nothing here yet") }, "a discarded draft is not offered again")
            return
        }
        again.keys("C-s")
        #expect(again.waitFor { $0.contains("Created note") })
        #expect(try setup.titles() == ["Half-written thought"])
        #expect(try setup.cli("list", "--tag", "ideas").output.contains("Half-written thought"))
        again.keys("q")
        #expect(again.waitFor { $0.contains("quire-exited-0") })

        // Saved: nothing is offered any more.
        let third = try Tmux(script: setup.script(), directory: setup.home)
        #expect(third.waitFor { $0.contains("Half-written thought") && !$0.contains("New note") })
    }

    static func drafts(_ setup: Setup) throws -> [Draft] {
        try AppDatabase.open(path: setup.home + "/quire.db", connections: .single).drafts()
    }

    @Test func sighupKeepsTheText() throws {
        try typeThenEnd({ _, _, pid in kill(pid, SIGHUP) }, expectedExit: "quire-exited-129")
    }

    @Test func sigtermKeepsTheText() throws {
        try typeThenEnd({ _, _, pid in kill(pid, SIGTERM) }, expectedExit: "quire-exited-143")
    }

    @Test func sigintKeepsTheText() throws {
        try typeThenEnd({ _, _, pid in kill(pid, SIGINT) }, expectedExit: "quire-exited-130")
    }

    /// SIGKILL cannot be caught: the text is in the store within a second of typing anyway.
    @Test func theTextIsKeptWithinASecondEvenBeforeAKill() throws {
        try typeThenEnd(
            { _, setup, pid in
                #expect(waitUntil(timeout: 1) { (try? Self.drafts(setup))?.first?.body == "not saved yet" })
                kill(pid, SIGKILL)
            }, expectedExit: "quire-exited-137")
    }

    @Test func killingThePaneKeepsTheText() throws {
        try typeThenEnd({ tmux, _, _ in _ = try? tmux.run(["kill-pane", "-t", "main"]) }, expectedExit: nil)
    }

    @Test func aRestoredDraftCanBeDiscardedAfterAsking() throws {
        try typeThenEnd({ _, _, pid in kill(pid, SIGHUP) }, expectedExit: "quire-exited-129", discard: true)
    }
}
