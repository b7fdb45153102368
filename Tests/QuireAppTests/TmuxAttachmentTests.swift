import Foundation
import QuireCore
import QuireTestSupport
import Testing

/// Attached files in a real terminal with the real binary: `a` attaches a file by a path
/// completed with Tab, and `o` hands the file to `$QUIRE_OPEN` while the app keeps running.
@Suite(.serialized, Tmux.required) struct TmuxAttachmentTests {
    typealias Setup = TmuxEndToEndTests.Setup

    /// Bytes that no other file of the test holds, a little over one sync chunk.
    static let bytes = Data((0..<1_200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })

    @Test func attachingAFileFromTheItemViewWithTheCompletedPath() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        try FileManager.default.createDirectory(atPath: setup.home + "/papers", withIntermediateDirectories: true)
        try Self.bytes.write(to: URL(fileURLWithPath: setup.home + "/papers/tickets.pdf"))
        #expect(try setup.cli("add", "Trip to Lyon", "--body", "trains and hotels").status == 0)
        let tmux = try Tmux(script: setup.script(before: "cd '\(setup.home)'"), directory: setup.home)
        #expect(tmux.waitFor { $0.contains("Trip to Lyon") })
        tmux.keys("Enter")
        #expect(tmux.waitFor { $0.contains("trains and hotels") && $0.contains("a attach") })

        // A bad path is one line and changes nothing.
        tmux.keys("a")
        #expect(tmux.waitFor { $0.contains("attach file:") })
        tmux.type("papers/nothing-here.pdf")
        tmux.keys("Enter")
        #expect(tmux.waitFor { $0.contains("Cannot attach: no such file:") })
        let none = try setup.cli("attachments", "--json", Self.shortID(setup)).output
        #expect(none.filter { !$0.isWhitespace } == "[]", "\(none)")

        // Tab completes the folder, then the file; Enter attaches it.
        tmux.keys("a")
        #expect(tmux.waitFor { $0.contains("attach file:") })
        tmux.type("pap")
        tmux.keys("Tab")
        #expect(tmux.waitFor { $0.contains("attach file: papers/") })
        tmux.type("tic")
        tmux.keys("Tab")
        #expect(tmux.waitFor { $0.contains("attach file: papers/tickets.pdf") })
        tmux.keys("Enter")
        #expect(tmux.waitFor { $0.contains("📎 tickets.pdf  1.1 MB  here") && $0.contains("Attached tickets.pdf") })
        #expect(tmux.waitFor { $0.contains("o open file") })

        // The store holds it as `quire attach` would have: listed, and the same bytes out.
        let listed = try setup.cli("attachments", Self.shortID(setup)).output
        #expect(listed.contains("tickets.pdf"), "\(listed)")
        let copy = setup.home + "/copy.pdf"
        #expect(try setup.cli("attachment", "get", Self.shortID(setup), "tickets.pdf", "--output", copy).status == 0)
        #expect(FileManager.default.contents(atPath: copy) == Self.bytes)
        tmux.keys("q", "q")
        #expect(tmux.waitFor { $0.contains("quire-exited-0") })
    }

    @Test func openingAFileHandsItsBytesToQuireOpenAndTheAppKeepsRunning() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.home) }
        let original = setup.home + "/plan.txt"
        try Self.bytes.write(to: URL(fileURLWithPath: original))
        #expect(try setup.cli("add", "Garden", "--body", "beds").status == 0)
        #expect(try setup.cli("attach", Self.shortID(setup), original).status == 0)
        try FileManager.default.removeItem(atPath: original)
        // The opener writes down the path it got, and what it printed must not reach the screen.
        let record = setup.home + "/opened-path"
        let tmux = try Self.openGardensFile(
            setup, opener: "echo \"$1\" > '\(record).tmp' && mv '\(record).tmp' '\(record)'\necho opener-noise")
        #expect(waitUntil(timeout: 5, every: 0.01) { FileManager.default.fileExists(atPath: record) })
        let path = try String(contentsOfFile: record, encoding: .utf8).trimmingCharacters(in: .newlines)
        #expect(path.hasSuffix("/plan.txt"), "the opener gets the file under its own name: \(path)")
        #expect(FileManager.default.contents(atPath: path) == Self.bytes)
        // Still the app, on the same screen, and nothing the opener printed.
        tmux.keys("j")
        #expect(tmux.waitFor { $0.contains("beds") && !$0.contains("opener-noise") })

        // An opener that is not there is a clear notice, and the app runs on.
        tmux.keys("q", "q")
        #expect(tmux.waitFor { $0.contains("quire-exited-0") })
        let missing = try Tmux(
            script: setup.script(environment: "QUIRE_OPEN='\(setup.home)/no-such-opener'"), directory: setup.home)
        #expect(missing.waitFor { $0.contains("Garden") })
        missing.keys("Enter", "o")
        // The status bar's line is cut at the pane's width; the opener's long path ends it.
        #expect(missing.waitFor { $0.contains("Cannot open plan.txt: '\(setup.home.prefix(20))") })
        missing.keys("q", "q")
        #expect(missing.waitFor { $0.contains("quire-exited-0") })
    }

    /// Starts the app with an opener script of `opener` (sh, given the file's path as $1),
    /// opens the item "Garden" and presses `o` on its file, plan.txt, once the view lists it.
    static func openGardensFile(_ setup: Setup, opener body: String) throws -> Tmux {
        let opener = setup.home + "/opener.sh"
        try "#!/bin/sh\n\(body)\n".write(toFile: opener, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener)
        let tmux = try Tmux(script: setup.script(environment: "QUIRE_OPEN='\(opener)'"), directory: setup.home)
        #expect(tmux.waitFor { $0.contains("Garden") })
        tmux.keys("Enter")
        #expect(tmux.waitFor { $0.contains("📎 plan.txt") && $0.contains("o open file") }, "\(tmux.capture())")
        tmux.keys("o")
        // Long enough for a file fetched first.
        #expect(tmux.waitFor(timeout: 20) { $0.contains("Opened plan.txt with") }, "\(tmux.capture())")
        return tmux
    }

    /// The short id of the only item.
    static func shortID(_ setup: Setup) throws -> String {
        let line = try #require(try setup.cli("list").output.split(separator: "\n").first)
        return String(try #require(line.split(separator: " ").first))
    }
}
