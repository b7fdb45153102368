import Foundation
import QuireCore
import QuireSync
import QuireTestSupport
import Testing

/// `[views]` in `config.toml`: names the person chose, each a filter that must read.
@Suite struct SavedViewsConfigTests {
    func settings(config: String?) throws -> (SyncSettings, String) {
        let home = NSTemporaryDirectory() + "quire-views-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        if let config { try config.write(toFile: home + "/config.toml", atomically: true, encoding: .utf8) }
        return (SyncSettings(configPath: home + "/config.toml", credentialsPath: home + "/credentials"), home)
    }

    @Test func theViewsAreReadInTheOrderWrittenBesideTheRemote() throws {
        let (settings, home) = try settings(
            config: """
                [remote]
                url = "http://127.0.0.1:9"

                [views]
                work = "project:work status:open"
                reading-list = '+"reading list" kind:note'
                """)
        defer { try? FileManager.default.removeItem(atPath: home) }
        try settings.check()
        let list = settings.savedViews()
        #expect(list.problem == nil)
        #expect(
            list.views == [
                SavedView(name: "work", filter: "project:work status:open"),
                SavedView(name: "reading-list", filter: "+\"reading list\" kind:note"),
            ])
        #expect(list.configPath == home + "/config.toml")
        #expect(settings.remoteURL() == "http://127.0.0.1:9")
    }

    @Test func aViewWhoseFilterDoesNotReadIsNamedWithItsLine() throws {
        let (settings, home) = try settings(config: "[views]\nok = \"+home\"\nbroken = \"due.before:someday\"\n")
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect {
            try settings.check()
        } throws: { error in
            let text = "\(error)"
            return text.contains("line 3") && text.contains("'broken'") && text.contains("someday")
        }
        let list = settings.savedViews()
        #expect(list.views.isEmpty)
        #expect(list.problem?.contains("line 3") == true)
    }

    @Test func noConfigMeansNoViewsAndNoProblem() throws {
        let (settings, home) = try settings(config: nil)
        defer { try? FileManager.default.removeItem(atPath: home) }
        try settings.check()
        #expect(settings.savedViews() == SavedViewList(configPath: home + "/config.toml"))
    }

    @Test func otherSectionsStillRefuseKeysQuireDoesNotKnow() throws {
        let (settings, home) = try settings(config: "[remote]\nlive = \"on\"\nwork = \"+x\"\n")
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(throws: SyncSettingsError.self) { try settings.check() }
    }

    /// `quire sync` reads the same file: a broken view stops it with the line, as a typo in
    /// `[remote]` does, and a good one does not get in its way.
    @Test func theCLIReportsABrokenViewInOneLine() async throws {
        let (_, home) = try settings(config: "[views]\nsoon = \"due.before:2026-02-30\"\n")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let run = try await QuireBinary.execute(["sync"], home: home)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("line 2") && run.stderr.contains("'soon'"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
    }
}
