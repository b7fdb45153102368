import Foundation
import QuireApp
import QuireCore
import QuireStore
import QuireTestSupport
import QuireUI
import TerminalUI
import Testing

@Suite struct ExternalEditorTests {
    /// An editor made of a shell script, so tests control exactly what it saves and when.
    static func script(_ body: String, in directory: String) throws -> String {
        let path = directory + "/editor.sh"
        try ("#!/bin/sh\nf=\"$1\"\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    @Test func theEditorsSaveComesBackAsAChange() throws {
        let directory = try makeTemporaryDirectory("quire-editor")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // One save (written aside, then moved in place): the watcher cannot see half of it.
        let editor = try Self.script(
            #"{ sed 's/^title: .*/title: Edited outside/' "$f"; printf 'New body\n'; } > "$f.new" && mv "$f.new" "$f""#,
            in: directory)
        let app = try AppHarness(items: [ImportEntry(title: "Original", body: "")], editor: editor)
        let id = try app.store.items()[0].id
        app.press(.character("E"))
        let item = try #require(try app.store.item(id))
        #expect(item.title == "Edited outside")
        #expect(item.body.contains("New body"))
        #expect(item.syncState == .pending)
        #expect(app.backend.log.suffix(3).starts(with: ["suspend", "resume"]))
        #expect(app.text.contains("Edited outside"))
        #expect(app.lines.last!.contains("from the editor"))
        // One undo takes the whole editor session back.
        app.press(.character("u"))
        #expect(try app.store.item(id)?.title == "Original")
        // The temporary file is gone.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: app.directory).filter {
            $0.hasPrefix("quire-edit-")
        }
        #expect(leftovers.isEmpty)
    }

    /// While the editor still runs, a save is already in the store: a terminal that dies now
    /// loses nothing that was saved.
    @Test func eachSaveLandsWhileTheEditorRuns() throws {
        let directory = try makeTemporaryDirectory("quire-editor")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let release = directory + "/release"
        let editor = try Self.script(
            """
            sed -i 's/^title: .*/title: First save/' "$f"
            while [ ! -e '\(release)' ]; do sleep 0.02; done
            sed -i 's/^title: .*/title: Second save/' "$f"
            """, in: directory)
        let app = try AppHarness(items: [ImportEntry(title: "Draft")], editor: editor)
        let id = try app.store.items()[0].id
        app.runtime.send(.key(.character("E")))
        let savedEarly = try app.waitFor { try app.store.item(id)?.title == "First save" }
        #expect(savedEarly)
        #expect(app.runtime.isEditingExternally)
        #expect(try app.store.item(id)?.syncState == .pending)
        #expect(FileManager.default.createFile(atPath: release, contents: Data()))
        #expect(app.runtime.waitUntilIdle())
        #expect(try app.store.item(id)?.title == "Second save")
        #expect(!app.runtime.isEditingExternally)
    }

    @Test func anUnreadableSaveKeepsTheFileAndSaysWhere() throws {
        let directory = try makeTemporaryDirectory("quire-editor")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let editor = try Self.script(#"printf -- '---\ntitle: [unclosed\n---\n' > "$f""#, in: directory)
        let app = try AppHarness(items: [ImportEntry(title: "Keep me")], editor: editor)
        app.press(.character("E"))
        #expect(try app.store.items()[0].title == "Keep me")
        #expect(app.state.notice?.text.contains("your text is kept at") == true)
        // Too long for the status bar, it takes the rows above it, and the path is whole.
        let path = try #require(app.state.notice?.text.components(separatedBy: "kept at ").last)
        let rows = app.lines.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(rows.contains { $0.hasPrefix("Editor:") })
        #expect(rows.joined().contains(path), "\(app.text)")
    }

    @Test func anEditorThatCannotStartIsReported() throws {
        let app = try AppHarness(items: [ImportEntry(title: "Untouched")], editor: "/nonexistent/editor")
        app.press(.character("E"))
        #expect(try app.store.items()[0].title == "Untouched")
        #expect(app.state.notice?.isError == true)
        // The shell answers 127 for a command it cannot find: the message names the command.
        #expect(app.state.notice?.text.contains("the editor '/nonexistent/editor' was not found") == true)
        #expect(app.state.notice?.text.contains("status 127") == false)
        #expect(app.backend.log.contains("resume"))
    }

    /// The editor must hear a resize and Ctrl-C even when the thread that starts it blocks them
    /// (the app's threads do): the wrapper hands it an empty signal mask and default actions.
    @Test func theEditorStartsWithNoSignalBlockedOrIgnored() throws {
        let directory = NSTemporaryDirectory() + "quire-editor-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let report = directory + "/signals"
        let editor = try Self.script(#"grep -E '^Sig(Blk|Ign):' /proc/self/status > "$f""#, in: directory)

        var blocked = sigset_t()
        sigemptyset(&blocked)
        for signal in [SIGWINCH, SIGINT, SIGTERM] { sigaddset(&blocked, signal) }
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        let parentMask = Self.signalMasks(try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8))
        let status = try ChildProcess.run(
            shellCommand: editor, arguments: [report], environment: ProcessInfo.processInfo.environment)
        pthread_sigmask(SIG_SETMASK, &previous, nil)

        #expect(status == 0)
        #expect(parentMask["SigBlk"].map { $0 & (1 << (UInt64(SIGWINCH) - 1)) != 0 } == true)
        let child = Self.signalMasks(try String(contentsOfFile: report, encoding: .utf8))
        #expect(child["SigBlk"] == 0)
        let defaults = [SIGWINCH, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGTSTP].reduce(UInt64(0)) {
            $0 | 1 << (UInt64($1) - 1)
        }
        #expect(child["SigIgn"].map { $0 & defaults } == 0)
    }

    /// `SigBlk` and `SigIgn` of a `/proc/…/status` text as bit sets (bit n - 1 is signal n).
    static func signalMasks(_ status: String) -> [String: UInt64] {
        var masks: [String: UInt64] = [:]
        for line in status.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0] == "SigBlk" || parts[0] == "SigIgn" else { continue }
            masks[String(parts[0])] = UInt64(parts[1].trimmingCharacters(in: .whitespaces), radix: 16)
        }
        return masks
    }
}
