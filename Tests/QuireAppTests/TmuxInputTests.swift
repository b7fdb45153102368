import Foundation
import QuireCore
import QuireTestSupport
import Testing

/// What a terminal sends beyond single keys, on the built `quire` in tmux: pastes, Tab in the
/// editor of an existing item, Ctrl-Z and `fg`, End in help, and keys arriving in one burst.
@Suite(.serialized, Tmux.required) struct TmuxInputTests {
    typealias Setup = TmuxEndToEndTests.Setup

    /// Every item in the store, deleted ones too.
    static func items(_ setup: Setup) throws -> [Item] {
        let result = try setup.cli("list", "--all", "--json")
        return try JSONDecoder().decode([Item].self, from: Data(result.output.utf8))
    }

    /// Pastes `text` as a terminal does for an app that asked for bracketed paste (and as
    /// plain typing for one that did not).
    static func paste(_ text: String, into tmux: Tmux) {
        _ = try? tmux.run(["set-buffer", "-b", "test", "--", text])
        _ = try? tmux.run(["paste-buffer", "-p", "-r", "-b", "test", "-t", "main"])
    }

    @Test func pastedTextIsTextInTheEditorAndNothingOnTheList() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        #expect(try setup.cli("add", "Keep me").status == 0)
        let tmux = try Tmux(script: setup.script(), directory: setup.home)
        #expect(tmux.waitFor { $0.contains("Keep me") })

        // On the list: `f` would filter, `t` open a new task, `d` delete, `q` quit.
        Self.paste("fst dq", into: tmux)
        #expect(tmux.waitFor { $0.contains("Pasted text ignored") })
        let list = tmux.capture()
        #expect(
            list.contains("> ") && list.contains("Keep me") && !list.contains("New task") && !list.contains("notes"))
        #expect(try Self.items(setup).map(\.deleted) == [false])

        // In the editor: a tab and a line break stay in the body; the title is untouched.
        tmux.keys("a")
        #expect(tmux.waitFor { $0.contains("New note") })
        tmux.type("Pasted")
        tmux.keys("Tab")
        Self.paste("col a\tcol b\nline two", into: tmux)
        #expect(tmux.waitFor { $0.contains("line two") })
        tmux.keys("C-s")
        #expect(tmux.waitFor { $0.contains("Created note") })
        let created = try #require(try Self.items(setup).first { $0.title == "Pasted" })
        #expect(created.body == "col a\tcol b\nline two")
        tmux.keys("q")
        #expect(tmux.waitFor { $0.contains("quire-exited-0") })
    }

    /// `e` opens an existing item with the cursor at the end of its body (the status bar says
    /// which line); Tab goes to the title, and Tab in the title goes to the body, as in a new
    /// item's editor. From the item view (Enter, then `e`) it is the same editor.
    @Test func tabMovesBetweenTitleAndBodyWhenEditingAnItem() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        #expect(try setup.cli("add", "Groceries", "--body", "eggs\nflour").status == 0)
        let tmux = try Tmux(script: setup.script(), directory: setup.home)
        #expect(tmux.waitFor { $0.contains("Groceries") })

        // From the list: the cursor starts after "flour"; Tab, Tab and typing end up there.
        tmux.keys("e")
        #expect(tmux.waitFor { $0.contains("Edit note · line 2") })
        tmux.keys("Tab")
        #expect(tmux.waitFor { $0.contains("Edit note · title") })
        tmux.keys("Tab")
        #expect(tmux.waitFor { $0.contains("Edit note · line 2") })
        tmux.keys("Enter")
        tmux.type("milk")
        #expect(tmux.waitFor { $0.contains("milk") && $0.contains("Edit note · line 3") })
        tmux.keys("C-s")
        #expect(tmux.waitFor { $0.contains("Saved “Groceries”") })
        var item = try #require(try Self.items(setup).first)
        #expect(item.title == "Groceries" && item.body == "eggs\nflour\nmilk")

        // From the item view: the title is reached with Tab, typed in, and Tab goes back to
        // the body, where typing goes on at its end.
        tmux.keys("Enter")
        #expect(tmux.waitFor { $0.contains("history") && $0.contains("back") && !$0.contains("Edit note") })
        tmux.keys("e")
        #expect(tmux.waitFor { $0.contains("Edit note · line 3") })
        tmux.keys("Tab")
        #expect(tmux.waitFor { $0.contains("Edit note · title") })
        tmux.type(" for Sunday")
        tmux.keys("Tab")
        #expect(tmux.waitFor { $0.contains("Edit note · line 3") })
        tmux.type(" and butter")
        tmux.keys("C-s")
        // Saved, and back on the item view it was opened from.
        #expect(tmux.waitFor { $0.contains("Saved “Groceries for Sunday”") && $0.contains("history") })
        item = try #require(try Self.items(setup).first)
        #expect(item.title == "Groceries for Sunday" && item.body == "eggs\nflour\nmilk and butter")
    }

    @Test func ctrlZSuspendsToTheShellAndFgComesBack() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        #expect(try setup.cli("add", "Still here").status == 0)
        // An interactive shell with job control, as a person's terminal has.
        let script = """
            export QUIRE_HOME='\(setup.home)'
            export PS1='shell$ '
            exec bash --norc --noprofile -i
            """
        let tmux = try Tmux(script: script, directory: setup.home)
        #expect(tmux.waitFor { $0.contains("shell$") })
        tmux.type("'\(setup.quire)'")
        tmux.keys("Enter")
        #expect(tmux.waitFor { $0.contains("Still here") && $0.contains("1/1") })
        #expect(tmux.format("#{alternate_on}") == "1")

        tmux.keys("C-z")
        #expect(tmux.waitFor { $0.contains("Stopped") })
        #expect(tmux.format("#{alternate_on}") == "0")
        tmux.type("fg")
        tmux.keys("Enter")
        // Redrawn as it was: `f` and `g` were the shell's, not the app's (no `notes` filter).
        #expect(tmux.waitFor { $0.contains("Still here") && $0.contains("1/1") })
        #expect(tmux.format("#{alternate_on}") == "1")
        #expect(!tmux.capture().contains("notes"))
        // Keys work again, and pastes are still pastes.
        Self.paste("d", into: tmux)
        #expect(tmux.waitFor { $0.contains("Pasted text ignored") })
        tmux.keys("q")
        #expect(waitUntil { tmux.format("#{alternate_on}") == "0" })
        #expect(try Self.items(setup).map(\.deleted) == [false])
    }

    @Test func endScrollsHelpToItsEnd() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        let tmux = try Tmux(script: setup.script(), width: 80, height: 24, directory: setup.home)
        #expect(tmux.waitFor { $0.contains("Nothing here yet") })
        tmux.keys("?")
        #expect(tmux.waitFor { $0.contains("Help") && $0.contains("move down") })
        tmux.keys("End")
        // The last binding of the table is on screen, and help is still open.
        #expect(tmux.waitFor { $0.contains("Questions") && $0.contains("yes") })
        #expect(!tmux.capture().contains("Nothing here yet"))
        tmux.keys("Home")
        #expect(tmux.waitFor { $0.contains("move down") })
    }

    @Test func aTagCompletesWhenTabAndEnterArriveInOneBurst() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        #expect(try setup.cli("add", "Passport", "--tag", "travel").status == 0)
        #expect(try setup.cli("add", "Groceries", "--tag", "home").status == 0)
        let tmux = try Tmux(script: setup.script(), directory: setup.home)
        #expect(tmux.waitFor { $0.contains("Passport") && $0.contains("Groceries") })
        // One send-keys: tmux writes the keys to the terminal together.
        tmux.keys("#", "t", "r", "a", "Tab", "Enter")
        #expect(tmux.waitFor { $0.contains("#travel") && $0.contains("1/1") })
        #expect(!tmux.capture().contains("Groceries"))
    }
}
