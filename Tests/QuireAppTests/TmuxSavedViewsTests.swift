import Foundation
import QuireTestSupport
import Testing

/// Saved views in a real terminal: `[views]` in the config the app is started with, `v` lists
/// them, `Enter` shows the list through one; an edit of the file shows the next time `v` opens.
@Suite(.serialized, Tmux.required) struct TmuxSavedViewsTests {
    typealias Setup = TmuxEndToEndTests.Setup

    @Test func aViewFromTheConfigFiltersTheList() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        try "[views]\ngarden = \"project:garden status:open\"\n".write(
            toFile: setup.home + "/config.toml", atomically: true, encoding: .utf8)
        #expect(try setup.cli("add", "Plant tulips", "--task", "--project", "garden").status == 0)
        #expect(try setup.cli("add", "Renew passport", "--task").status == 0)
        let tmux = try Tmux(script: setup.script(), directory: setup.home)
        #expect(tmux.waitFor { $0.contains("Plant tulips") && $0.contains("Renew passport") })
        tmux.keys("v")
        #expect(tmux.waitFor { $0.contains("Saved views") && $0.contains("project:garden status:open") })
        tmux.keys("j", "Enter")
        #expect(
            tmux.waitFor { $0.contains("view garden") && $0.contains("Plant tulips") && !$0.contains("Renew passport") }
        )

        // A view added while the app runs is listed the next time.
        try "[views]\ngarden = \"project:garden status:open\"\nall-tasks = \"kind:task\"\n".write(
            toFile: setup.home + "/config.toml", atomically: true, encoding: .utf8)
        tmux.keys("v")
        #expect(tmux.waitFor { $0.contains("all-tasks") && $0.contains("kind:task") })
        tmux.keys("g", "Enter")
        #expect(tmux.waitFor { !$0.contains("view garden") && $0.contains("Renew passport") })
        tmux.keys("q")
        #expect(tmux.waitFor { $0.contains("quire-exited-0") })
    }
}
