import Foundation
import QuireCore
import QuireTestSupport
import Testing

/// The app's editor open on an item while something else changes it: the CLI in another
/// terminal, or another device through the server. The editor says so while it is open; saving
/// merges with that change, or keeps both and opens the resolve screen (SPEC: "Every write
/// merges with what changed since it began").
@Suite(.serialized, Tmux.required) struct TmuxConcurrentEditTests {
    typealias Setup = TmuxEndToEndTests.Setup

    func onlyItem(_ setup: Setup) throws -> Item {
        let listed = try setup.cli("list", "--all", "--json")
        return try #require(try JSONDecoder().decode([Item].self, from: Data(listed.output.utf8)).first)
    }

    /// Opens the app on the store, the only item selected, in the editor with the cursor at the
    /// end of the body.
    func openEditor(_ setup: Setup, title: String) throws -> Tmux {
        let tmux = try Tmux(script: setup.script(), directory: setup.home)
        #expect(tmux.waitFor { $0.contains(title) }, "\(tmux.capture())")
        tmux.keys("e")
        #expect(tmux.waitFor { $0.contains("Edit note") }, "\(tmux.capture())")
        // Down twice: the details line, then the body; then its last row's end.
        tmux.keys("Down")
        tmux.keys("Down")
        tmux.keys("PageDown")
        tmux.keys("End")
        return tmux
    }

    @Test func aCLIEditWhileTheEditorIsOpenIsShownAndMergedOnSave() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        #expect(try setup.cli("add", "Packing", "--body", "passport\ncharger\nsocks").status == 0)
        let id = try onlyItem(setup).id
        let tmux = try openEditor(setup, title: "Packing")
        tmux.keys("Enter")
        tmux.type("toothbrush")

        #expect(try setup.cli("edit", id, "--body", "umbrella\npassport\ncharger\nsocks").status == 0)
        #expect(
            tmux.waitFor { $0.contains("changed elsewhere since you opened it · saving merges") }, "\(tmux.capture())")
        tmux.keys("C-s")
        #expect(tmux.waitFor { $0.contains("Merged with a change made meanwhile") }, "\(tmux.capture())")
        #expect(try onlyItem(setup).body == "umbrella\npassport\ncharger\nsocks\ntoothbrush")
        tmux.keys("q")
        #expect(tmux.waitFor { $0.contains("quire-exited-0") })
    }

    @Test func anOverlappingCLIEditEndsInReviewWithBothKept() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        #expect(try setup.cli("add", "Packing", "--body", "passport\ncharger").status == 0)
        let id = try onlyItem(setup).id
        let tmux = try openEditor(setup, title: "Packing")
        tmux.type(" cable")

        #expect(try setup.cli("edit", id, "--body", "passport\ncharger and plug").status == 0)
        #expect(tmux.waitFor { $0.contains("changed elsewhere since you opened it") }, "\(tmux.capture())")
        tmux.keys("C-s")
        #expect(
            tmux.waitFor { $0.contains("both kept") && $0.contains("Resolve Packing") }, "\(tmux.capture())")
        let kept = try onlyItem(setup)
        #expect(kept.body.contains("charger cable") && kept.body.contains("charger and plug"), "\(kept.body)")
        #expect(kept.syncState == .needsReview)
        // Choosing on the resolve screen writes the choice.
        tmux.keys("r")
        tmux.keys("Enter")
        #expect(tmux.waitFor { $0.contains("Resolved") }, "\(tmux.capture())")
        #expect(try onlyItem(setup).body == "passport\ncharger and plug")
        tmux.keys("q")
        #expect(tmux.waitFor { $0.contains("quire-exited-0") })
    }

    /// `E`: $EDITOR holds the file while another terminal changes the item; its save merges.
    @Test func anExternalEditorSaveMergesWithAChangeMadeWhileItWasOpen() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        #expect(try setup.cli("add", "Packing", "--body", "passport\ncharger\nsocks\n").status == 0)
        let id = try onlyItem(setup).id
        let editor = setup.home + "/editor.sh"
        try """
        #!/bin/sh
        touch '\(setup.home)/opened'
        n=0
        while [ ! -e '\(setup.home)/go' ] && [ $n -lt 1500 ]; do sleep 0.02; n=$((n + 1)); done
        echo toothbrush >> "$1"
        """.write(toFile: editor, atomically: true, encoding: .utf8)
        chmod(editor, 0o755)
        let tmux = try Tmux(script: setup.script(environment: "EDITOR='\(editor)'"), directory: setup.home)
        #expect(tmux.waitFor { $0.contains("Packing") })
        tmux.keys("E")
        #expect(
            waitUntil(timeout: asyncWorkDeadline) { FileManager.default.fileExists(atPath: setup.home + "/opened") })
        #expect(try setup.cli("edit", id, "--body", "umbrella\npassport\ncharger\nsocks\n").status == 0)
        _ = FileManager.default.createFile(atPath: setup.home + "/go", contents: nil)
        #expect(tmux.waitFor { $0.contains("Merged with a change made meanwhile") }, "\(tmux.capture())")
        #expect(try onlyItem(setup).body == "umbrella\npassport\ncharger\nsocks\ntoothbrush\n")
        tmux.keys("q")
        #expect(tmux.waitFor { $0.contains("quire-exited-0") })
    }

    /// Another device's change arrives through the server while the editor is open.
    @Test func aChangePulledWhileTheEditorIsOpenMergesOnSave() throws {
        let (server, a, b) = try TmuxSyncTests().twoDevices()
        defer {
            withExtendedLifetime(server) {}
            for device in [a, b] { try? FileManager.default.removeItem(atPath: device.home) }
        }
        #expect(try a.cli("add", "Packing", "--body", "passport\ncharger\nsocks").status == 0)
        #expect(try a.cli("sync").status == 0)
        #expect(try b.cli("sync").status == 0)
        let id = try onlyItem(a).id

        let tmux = try openEditor(a, title: "Packing")
        tmux.keys("Enter")
        tmux.type("toothbrush")
        #expect(try b.cli("edit", id, "--body", "umbrella\npassport\ncharger\nsocks").status == 0)
        #expect(try b.cli("sync").status == 0)
        // The app's worker pulls it (the server hints the open device); the editor says so.
        #expect(
            tmux.waitFor(timeout: asyncWorkDeadline) { $0.contains("changed elsewhere since you opened it") },
            "\(tmux.capture())")
        tmux.keys("C-s")
        #expect(tmux.waitFor { $0.contains("Merged with a change made meanwhile") }, "\(tmux.capture())")
        #expect(try onlyItem(a).body == "umbrella\npassport\ncharger\nsocks\ntoothbrush")
        // And it reaches the other device as one merged text.
        #expect(
            waitUntil(timeout: asyncWorkDeadline) {
                _ = try? b.cli("sync")
                return (try? onlyItem(b).body) == "umbrella\npassport\ncharger\nsocks\ntoothbrush"
            })
        tmux.keys("q")
        #expect(tmux.waitFor { $0.contains("quire-exited-0") })
    }
}
