import Foundation
import QuireCore
import QuireTestSupport
import Testing

/// The built `quire` on a real pseudo-terminal inside tmux: typing, reading the screen back,
/// resizing, quitting, and checking that the terminal is left as it was.
@Suite(.serialized, Tmux.required) struct TmuxEndToEndTests {
    struct Setup {
        let quire: String
        let home: String

        init() throws {
            quire = try #require(BuiltProduct.path("quire"), "the quire executable is not built next to the tests")
            home = try makeTemporaryDirectory("quire-tmux")
        }

        /// A pane script: runs quire, then reports its exit status and the terminal modes.
        func script(environment: String = "", before: String = "") -> String {
            """
            export QUIRE_HOME='\(home)'
            \(before)
            \(environment) '\(quire)'
            echo "quire-exited-$?"
            stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '
            echo "modes-reported"
            exec sleep 600
            """
        }

        /// Starts quire on an empty store in a pane, once its list shows, and reads its pid: the
        /// pane's shell records its own pid and then becomes quire.
        func startRecordingPID() throws -> (Tmux, Int32) {
            let tmux = try Tmux(script: scriptRecordingPID(), directory: home)
            #expect(tmux.waitFor { $0.contains("Nothing here yet") })
            return (tmux, try recordedPID())
        }

        /// `script()`, with quire's pid written to the home's `pid` file as it starts.
        func scriptRecordingPID() -> String {
            script().replacingOccurrences(
                of: " '\(quire)'\n", with: " sh -c 'echo $$ > \(home)/pid; exec \"$0\"' '\(quire)'\n")
        }

        /// The pid `scriptRecordingPID` wrote.
        func recordedPID() throws -> Int32 {
            let text = try String(contentsOfFile: home + "/pid", encoding: .utf8)
            return try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        }

        /// `quire` as a command, for checking the database.
        func cli(_ arguments: String..., stdin: String? = nil) throws -> (status: Int32, output: String) {
            var environment = ProcessInfo.processInfo.environment
            environment["QUIRE_HOME"] = home
            let output = try ChildRun.run(quire, arguments, environment: environment, stdin: stdin, mergingOutput: true)
            return (output.status, output.stdout)
        }

        func titles() throws -> [String] {
            let result = try cli("list", "--all", "--json")
            let data = Data(result.output.utf8)
            let items = try JSONDecoder().decode([Item].self, from: data)
            return items.map(\.title)
        }
    }

    @Test func typeANoteResizeAndQuit() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        let tmux = try Tmux(script: setup.script(), directory: setup.home)

        #expect(tmux.waitFor { $0.contains("Nothing here yet") })
        #expect(tmux.format("#{alternate_on}") == "1")

        tmux.keys("a")
        #expect(tmux.waitFor { $0.contains("New note") })
        tmux.type("Typed in tmux 日本")
        tmux.keys("Tab")
        tmux.type("with a body")
        tmux.keys("C-s")
        #expect(tmux.waitFor { $0.contains("Created note") && $0.contains("> ●     Typed in tmux 日本") })
        #expect(try setup.titles() == ["Typed in tmux 日本"])

        // Search as you type; a lone Esc (sent without a following key) clears it.
        tmux.keys("/")
        tmux.type("tmux")
        #expect(tmux.waitFor { $0.contains(" / tmux") && $0.contains("1/1") })
        tmux.keys("Escape")
        #expect(tmux.waitFor { !$0.contains(" / tmux") })

        // Another terminal adds an item: it appears without a key press.
        #expect(try setup.cli("add", "From the CLI", "--task").status == 0)
        #expect(tmux.waitFor(timeout: 2) { $0.contains("[ ] From the CLI") })

        tmux.resize(width: 60, height: 20)
        #expect(
            tmux.waitFor { screen in
                let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
                return lines.count >= 20 && lines[19].contains("pending") && screen.contains("Typed in tmux")
            })
        tmux.resize(width: 15, height: 5)
        #expect(tmux.waitFor { $0.contains("terminal too") && $0.contains("need 20x6") })
        tmux.resize(width: 100, height: 30)
        #expect(tmux.waitFor { $0.contains("Typed in tmux 日本") && $0.contains("From the CLI") })

        tmux.keys("q")
        #expect(tmux.waitFor { $0.contains("quire-exited-0") && $0.contains("modes-reported") })
        let screen = tmux.capture()
        #expect(screen.contains("icanon echo"), "terminal modes after exit: \(screen)")
        #expect(!screen.contains("Typed in tmux"), "the app's screen must be gone after exit")
        #expect(tmux.format("#{alternate_on}") == "0")
        #expect(tmux.format("#{cursor_flag}") == "1")
    }

    @Test func sigtermRestoresTheTerminal() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        let (tmux, pid) = try setup.startRecordingPID()
        kill(pid, SIGTERM)
        #expect(tmux.waitFor { $0.contains("quire-exited-143") && $0.contains("modes-reported") })
        #expect(tmux.capture().contains("icanon echo"))
        #expect(tmux.format("#{alternate_on}") == "0")
    }

    @Test func anUnknownTerminalTypeFallsBack() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        let tmux = try Tmux(script: setup.script(environment: "TERM=no-such-terminal"), directory: setup.home)
        #expect(tmux.waitFor { $0.contains("unknown terminal type 'no-such-terminal'") })
        tmux.keys("q")
        #expect(tmux.waitFor { $0.contains("quire-exited-0") && $0.contains("modes-reported") })
        #expect(tmux.capture().contains("icanon echo"))
    }

    @Test func colourFollowsNoColor() throws {
        for noColor in [false, true] {
            let setup = try Setup()
            defer { try? FileManager.default.removeItem(atPath: setup.home) }
            #expect(try setup.cli("add", "Colourful", "--task", "--priority", "high").status == 0)
            // `env -u`: the test runner itself may set NO_COLOR, and the pane inherits it.
            let environment = "env -u NO_COLOR TERM=xterm-256color" + (noColor ? " NO_COLOR=1" : "")
            let tmux = try Tmux(script: setup.script(environment: environment), directory: setup.home)
            #expect(tmux.waitFor { $0.contains("Colourful") })
            let styled = (try? tmux.run(["capture-pane", "-e", "-p", "-t", "main"])) ?? ""
            // SGR colour codes: 30-37 / 40-47 foregrounds and backgrounds.
            let colour = styled.range(of: #"\e\[[0-9;]*(3[0-7]|4[0-7])[;m]"#, options: .regularExpression) != nil
            #expect(colour == !noColor, "NO_COLOR=\(noColor): \(styled.prefix(300))")
            #expect(
                styled.contains("\u{1b}[7m") || styled.contains(";7m") || !noColor, "reverse video marks the selection")
            tmux.keys("q")
            #expect(tmux.waitFor { $0.contains("modes-reported") })
        }
    }

    @Test func withoutATerminalItPointsToTheCLI() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        let result = try setup.cli()
        #expect(result.status == 1)
        #expect(result.output.contains("needs a terminal"))
        #expect(result.output.contains("quire list"))
        #expect(result.output.split(separator: "\n").count == 1)
    }

    /// The terminal goes away while the external editor runs: what the editor saved is in the
    /// store all the same.
    @Test func aSaveSurvivesTheTerminalDyingMidEdit() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        #expect(try setup.cli("add", "Before the crash").status == 0)
        let editor = setup.home + "/editor.sh"
        let saved = setup.home + "/saved"
        try """
        #!/bin/sh
        sed -i 's/^title: .*/title: Saved before the crash/' "$1"
        touch '\(saved)'
        exec sleep 600
        """.write(toFile: editor, atomically: true, encoding: .utf8)
        chmod(editor, 0o755)
        let tmux = try Tmux(script: setup.script(environment: "EDITOR='\(editor)'"), directory: setup.home)
        #expect(tmux.waitFor { $0.contains("Before the crash") })
        tmux.keys("E")
        waitUntil(every: 0.01) { FileManager.default.fileExists(atPath: saved) }
        // Give the watcher its chance to see the save, then pull the terminal away.
        let landed = try waitUntil { try setup.titles() == ["Saved before the crash"] }
        #expect(landed)
        _ = try? tmux.run(["kill-server"])
        #expect(try setup.titles() == ["Saved before the crash"])
    }
}
