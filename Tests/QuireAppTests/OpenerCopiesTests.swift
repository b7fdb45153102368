import Foundation
import QuireApp
import QuireCore
import QuireStore
import QuireUI
import TerminalUI
import Testing

/// The copies the app hands to `$QUIRE_OPEN` under `$TMPDIR/quire-open`, with the real runtime
/// over a store file and a real opener script: they go when no longer needed, never while an
/// opener of this app may still read them.
@Suite struct OpenerCopiesTests {
    static let day: TimeInterval = 24 * 60 * 60

    /// An item with `names` attached, each holding its own name as bytes, and an opener that
    /// copies what it gets to `got-NAME` beside the store; for a name starting with `slow` it
    /// first says it started and waits for a `gate` file.
    static func app(attaching names: [String], prepare: @escaping (String) throws -> Void = { _ in }) throws
        -> AppHarness
    {
        try AppHarness(
            items: [ImportEntry(kind: .note, title: "Trip", createdAt: Date(timeIntervalSince1970: 1_790_000_000))],
            prepare: { store, directory in
                let paths = try names.map { name in
                    let path = directory + "/" + name
                    try Data(name.utf8).write(to: URL(fileURLWithPath: path))
                    return path
                }
                let item = try #require(try store.items(matching: .live).first)
                try store.attachFiles(at: paths, to: item.id)
                let opener = """
                    #!/bin/sh
                    name=$(basename "$1")
                    case "$name" in slow*) touch '\(directory)/started'; \
                    while [ ! -e '\(directory)/gate' ]; do sleep 0.01; done;; esac
                    cat "$1" > '\(directory)/reading' && mv '\(directory)/reading' '\(directory)/got-'"$name"
                    """
                try opener.write(toFile: directory + "/opener.sh", atomically: true, encoding: .utf8)
                try FileManager.default.setAttributes(
                    [.posixPermissions: 0o755], ofItemAtPath: directory + "/opener.sh")
                try prepare(directory)
            },
            variables: { ["QUIRE_OPEN": $0 + "/opener.sh"] })
    }

    /// Writes a copy as an earlier run of the app left it, `age` seconds ago.
    static func leaveCopy(_ path: String, age: TimeInterval) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("an earlier copy".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: path)
    }

    @Test func copiesOlderThanADayGoWhenTheAppStartsAndWhenItOpensAnother() throws {
        let app = try Self.app(attaching: ["tickets.pdf"]) { directory in
            try Self.leaveCopy(directory + "/quire-open/aaaa/old.pdf", age: 2 * Self.day)
            try Self.leaveCopy(directory + "/quire-open/bbbb/recent.pdf", age: 60 * 60)
        }
        let copies = app.directory + "/quire-open"
        #expect(app.waitFor { !FileManager.default.fileExists(atPath: copies + "/aaaa") }, "a day-old copy goes")
        #expect(FileManager.default.fileExists(atPath: copies + "/bbbb/recent.pdf"), "an hour-old one stays")

        // A day later, opening another file takes the copy that has turned a day old with it.
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-2 * Self.day)], ofItemAtPath: copies + "/bbbb/recent.pdf")
        app.press(.enter, .character("o"))
        #expect(app.waitFor { FileManager.default.fileExists(atPath: app.directory + "/got-tickets.pdf") })
        #expect(FileManager.default.contents(atPath: app.directory + "/got-tickets.pdf") == Data("tickets.pdf".utf8))
        #expect(app.waitFor { !FileManager.default.fileExists(atPath: copies + "/bbbb") }, "\(app.text)")
    }

    @Test func quittingRemovesTheAppsCopiesWhoseOpenerEndedButNotOneStillBeingRead() throws {
        let app = try Self.app(attaching: ["fast.txt", "slow.txt"])
        app.press(.enter, .character("o"))
        #expect(app.waitFor { app.text.contains("Opened fast.txt") }, "\(app.text)")
        let fastCopy = try #require(Self.copies(in: app.directory).first { $0.hasSuffix("/fast.txt") })
        // The slow opener is still running when the app quits: its wait keeps the app busy.
        app.runtime.send(.key(.tab))
        app.runtime.send(.key(.character("o")))
        #expect(app.waitFor { FileManager.default.fileExists(atPath: app.directory + "/started") }, "\(app.text)")
        let slowCopy = try #require(Self.copies(in: app.directory).first { $0.hasSuffix("/slow.txt") })
        app.runtime.stop()
        _ = app.runtime.waitUntilStopped()
        #expect(!FileManager.default.fileExists(atPath: fastCopy), "its opener ended: the copy goes with the app")
        #expect(FileManager.default.fileExists(atPath: slowCopy), "its opener still runs: the copy stays")

        #expect(FileManager.default.createFile(atPath: app.directory + "/gate", contents: nil))
        #expect(app.waitFor { FileManager.default.fileExists(atPath: app.directory + "/got-slow.txt") })
        #expect(FileManager.default.contents(atPath: app.directory + "/got-slow.txt") == Data("slow.txt".utf8))
    }

    /// Every copy under the opener's folder.
    static func copies(in directory: String) -> [String] {
        let folder = directory + "/quire-open"
        return ((try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? []).map { folder + "/" + $0 }
    }
}
