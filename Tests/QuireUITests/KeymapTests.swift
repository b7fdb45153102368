import Foundation
import QuireTestSupport
import QuireUI
import TerminalUI
import Testing

@Suite struct KeymapTests {
    @Test func specKeysAreBound() {
        let expected: [(Key, Command)] = [
            (.character("j"), .moveDown), (.down, .moveDown), (.character("k"), .moveUp), (.up, .moveUp),
            (.character("g"), .moveTop), (.character("G"), .moveBottom), (.enter, .open),
            (.character("a"), .newNote), (.character("t"), .newTask), (.character("e"), .edit),
            (.character("E"), .editExternally), (.character("x"), .toggleDone), (.character(" "), .toggleDone),
            (.character("d"), .delete), (.character("u"), .undo), (.character("p"), .pin),
            (.character("/"), .search), (.escape, .back), (.character("c"), .nextNeedingReview),
            (.character("s"), .syncNow), (.character("S"), .syncStatus), (.character("?"), .help),
            (.character("q"), .quit),
        ]
        for (key, command) in expected {
            #expect(Keymap.command(for: key, in: .list) == command, "\(key.name)")
        }
        #expect(Keymap.command(for: .tab, in: .editor) == .switchField)
        #expect(Keymap.command(for: .control("s"), in: .editor) == .save)
        #expect(Keymap.command(for: .escape, in: .editor) == .cancel)
    }

    @Test func noKeyIsBoundTwiceInOneContext() {
        for context in KeyContext.allCases {
            var seen: Set<Key> = []
            for binding in Keymap.bindings(in: context) {
                for key in binding.keys {
                    #expect(!seen.contains(key), "\(key.name) twice in \(context)")
                    seen.insert(key)
                }
            }
        }
    }

    @Test func helpShowsEveryBinding() {
        var harness = Harness(size: Size(width: 100, height: 200))
        harness.press(.character("?"))
        let text = harness.text
        for binding in Keymap.bindings {
            #expect(text.contains(binding.keyNames), "\(binding.keyNames)")
            #expect(text.contains(binding.help), "\(binding.help)")
        }
    }

    @Test func helpScrollsAndCloses() {
        var harness = Harness(size: .small)
        harness.press(.character("?"), .pageDown, .pageDown)
        guard case .help(let scroll) = harness.state.screen else {
            Issue.record("help is not open")
            return
        }
        #expect(scroll > 0)
        harness.press(.escape)
        #expect(harness.state.screen == .list)
    }

    /// The key table for the README, recorded beside the snapshots for copying.
    @Test func keyTableForTheReadme() {
        assertSnapshot(Keymap.markdown(), named: "readme-keys")
    }

    /// The screenshot-like block in the README.
    @Test func screenshotForTheReadme() {
        let harness = Harness(size: Size(width: 100, height: 14))
        assertSnapshot(harness.text, named: "readme-screenshot")
    }

    /// The README's key table is `Keymap.markdown()` word for word.
    @Test func readmeKeyTableMatchesTheKeymap() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(Keymap.markdown()), "README.md must contain the output of Keymap.markdown()")
    }
}
