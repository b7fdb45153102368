import Foundation
import QuireCore
import QuireTestSupport
import Testing

/// Links in a real terminal: `L` lists them, Enter follows one and Backspace comes back, and a
/// rename made by the CLI meanwhile keeps the link working.
@Suite(.serialized, Tmux.required) struct TmuxLinkTests {
    typealias Setup = TmuxEndToEndTests.Setup

    @Test func followingALinkAndBackAcrossARename() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        #expect(try setup.cli("add", "Garden plan", "--body", "beds and paths").status == 0)
        #expect(try setup.cli("add", "Spring", "--body", "see [[garden plan]] soon").status == 0)
        let tmux = try Tmux(script: setup.script(), directory: setup.home)
        #expect(tmux.waitFor { $0.contains("Spring") && $0.contains("Garden plan") })
        tmux.keys("Enter")
        #expect(tmux.waitFor { $0.contains("see") && $0.contains("soon") })
        tmux.keys("L")
        #expect(tmux.waitFor { $0.contains("→ [[garden plan]]  Garden plan") })
        tmux.keys("Enter")
        #expect(tmux.waitFor { $0.contains("beds and paths") })
        tmux.keys("L")
        #expect(tmux.waitFor { $0.contains("← Spring") }, "the backlink")
        tmux.keys("Escape", "BSpace")
        #expect(tmux.waitFor { $0.contains("soon") && !$0.contains("beds and paths") })

        // The CLI renames the target in another terminal: the link is rewritten, and still leads.
        let listed = try setup.cli("list").output.split(separator: "\n")
        let garden = try #require(listed.first { $0.contains("Garden plan") }?.split(separator: " ").first)
        #expect(try setup.cli("edit", String(garden), "--title", "Garden 2027").status == 0)
        #expect(tmux.waitFor { $0.contains("see [[Garden 2027]] soon") || $0.contains("Garden 2027") })
        tmux.keys("L")
        #expect(tmux.waitFor { $0.contains("→ [[Garden 2027]]") })
        tmux.keys("Enter")
        #expect(tmux.waitFor { $0.contains("beds and paths") })
        tmux.keys("q", "q")
        #expect(tmux.waitFor { $0.contains("quire-exited-0") })
    }

    /// The item view ends with the items that link to it; a link to an item that does not exist
    /// is marked. In the editor, Tab after `[[` completes a title, with the Tab and the keys
    /// after it in one write: the completion lands before the next key is read.
    @Test func backlinksListedAndTitlesCompletedInTheEditor() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        #expect(try setup.cli("add", "Garden plan", "--body", "beds and paths").status == 0)
        #expect(try setup.cli("add", "Spring", "--body", "see [[garden plan]] and [[Nowhere]]").status == 0)
        let tmux = try Tmux(script: setup.script(), directory: setup.home)
        #expect(tmux.waitFor { $0.contains("Spring") && $0.contains("Garden plan") })
        tmux.keys("Enter")
        #expect(tmux.waitFor { $0.contains("see [[garden plan]] and [[Nowhere]] (missing)") })
        tmux.keys("Escape", "j", "Enter")
        #expect(tmux.waitFor { $0.contains("beds and paths") && $0.contains("Linked from") && $0.contains("← Spring") })

        tmux.keys("Escape", "a")
        #expect(tmux.waitFor { $0.contains("New note") })
        tmux.type("Summer\tafter [[gar\t soon")
        tmux.keys("C-s")
        #expect(tmux.waitFor { !$0.contains("New note") && $0.contains("Summer") })
        let summer = try setup.cli("list", "--json", "Summer").output
        #expect(summer.contains("after [[Garden plan]] soon"), "\(summer)")
        tmux.keys("G", "Enter")  // the oldest: Garden plan
        #expect(tmux.waitFor { $0.contains("beds and paths") && $0.contains("← Summer") && $0.contains("← Spring") })
        tmux.keys("q", "q")
        #expect(tmux.waitFor { $0.contains("quire-exited-0") })
    }
}
