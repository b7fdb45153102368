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
        let editor = try Self.script(#"sed -i 's/^title: .*/title: Edited outside/' "$f"; printf 'New body\n' >> "$f""#, in: directory)
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
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: app.directory).filter { $0.hasPrefix("quire-edit-") }
        #expect(leftovers.isEmpty)
    }

    /// While the editor still runs, a save is already in the store: a terminal that dies now
    /// loses nothing that was saved.
    @Test func eachSaveLandsWhileTheEditorRuns() throws {
        let directory = try makeTemporaryDirectory("quire-editor")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let release = directory + "/release"
        let editor = try Self.script("""
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
        #expect(app.lines.last!.contains("Editor:"))
        #expect(app.state.notice?.text.contains("your text is kept at") == true)
    }

    @Test func anEditorThatCannotStartIsReported() throws {
        let app = try AppHarness(items: [ImportEntry(title: "Untouched")], editor: "/nonexistent/editor")
        app.press(.character("E"))
        #expect(try app.store.items()[0].title == "Untouched")
        #expect(app.state.notice?.isError == true)
        #expect(app.backend.log.contains("resume"))
    }
}
