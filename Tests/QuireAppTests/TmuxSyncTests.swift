import Foundation
import QuireCore
import QuireTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built `quire` on a real terminal syncing in the background with the built
/// `quire-server` on a loopback port: what is typed reaches another device with no command
/// run, and `s` brings another device's change in at once.
@Suite(.serialized, Tmux.required) struct TmuxSyncTests {
    /// `quire-server serve` on a fresh SQLite file and a free loopback port it can start on again.
    final class Server {
        let directory: String
        let binary: String
        private(set) var process: ServerProcess
        let url: String
        let token: String

        var database: String { directory + "/server.db" }

        init(binary: String) throws {
            self.binary = binary
            directory = try makeTemporaryDirectory("quire-tui-sync")
            let database = directory + "/server.db"
            let added = Spawn.run(binary, ["user", "add", "alice", "--db", database])
            token = try #require(added.output.split(separator: "\n").last.map(String.init), "user add printed no token")
            #expect(added.status == 0)
            // Outside the kernel's range for ports: `restart` needs the port again, and an
            // outgoing connection of another test could take one of those meanwhile.
            process = try ServerProcess.restartable(serveBlocking: ["--db", database, "--rate-limit", "0"])
            url = process.baseURL
        }

        /// Starts the server again on the same port and database, after `process.kill()`.
        func restart() throws {
            process = try ServerProcess(
                serveBlocking: ["--db", database, "--rate-limit", "0", "--port", String(process.port)])
        }

        /// Runs an operator's command (`token revoke alice`) on the server's database.
        func admin(_ arguments: String...) -> (status: Int32, output: String) {
            Spawn.run(binary, arguments + ["--db", database])
        }

        deinit {
            // The process is killed (SIGKILL) as it goes: the test runner's threads block the
            // signals a graceful stop listens for.
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// A server and two devices (separate homes) signed in to it as one user.
    func twoDevices() throws -> (Server, TmuxEndToEndTests.Setup, TmuxEndToEndTests.Setup) {
        let server = try Server(binary: try #require(BuiltProduct.path("quire-server")))
        let devices = [try TmuxEndToEndTests.Setup(), try TmuxEndToEndTests.Setup()]
        for device in devices {
            #expect(try device.cli("remote", "set", server.url, "--token", server.token).status == 0)
        }
        return (server, devices[0], devices[1])
    }

    @Test func whatIsTypedSyncsInTheBackgroundAndSPullsAtOnce() throws {
        let (server, a, b) = try twoDevices()
        defer {
            // The server must outlive the devices' last sync: it stops when released.
            withExtendedLifetime(server) {}
            for device in [a, b] { try? FileManager.default.removeItem(atPath: device.home) }
        }
        let tmux = try Tmux(script: a.script(), directory: a.home)
        #expect(tmux.waitFor { $0.contains("Nothing here yet.") })

        // Typed in the app: no `quire sync` anywhere, yet it reaches the server.
        tmux.keys("a")
        tmux.type("Written on the train")
        tmux.keys("C-s")
        // On the list (the editor, still open with the typed title, shows the bar's last line
        // too), with the row's badge gone (pending ●, syncing ↻).
        #expect(
            tmux.waitFor(timeout: 20) {
                $0.contains("Enter open") && $0.contains("All changes synced") && $0.contains("Written on the train")
                    && !$0.contains("●") && !$0.contains("↻")
            },
            "\(tmux.capture())")
        #expect(try b.cli("sync").status == 0)
        #expect(try b.titles() == ["Written on the train"])

        // Another device's change comes in when `s` is pressed, without waiting for the minute.
        #expect(try b.cli("add", "Added on the laptop").status == 0)
        #expect(try b.cli("sync").status == 0)
        tmux.keys("s")
        #expect(tmux.waitFor(timeout: 10) { $0.contains("Added on the laptop") }, "\(tmux.capture())")
        #expect(try a.titles().sorted() == ["Added on the laptop", "Written on the train"])
        // "Syncing…" goes once the round is over; the sync line says how it went.
        #expect(tmux.waitFor { !$0.contains("Syncing…") && $0.contains("All changes synced") }, "\(tmux.capture())")

        // The server goes away: `s` tries, and the bar says offline instead of "Syncing…".
        server.process.kill()
        tmux.keys("s")
        #expect(
            tmux.waitFor(timeout: 10) { !$0.contains("Syncing…") && $0.contains("offline, retrying in") },
            "\(tmux.capture())")

        tmux.keys("q")
        #expect(tmux.waitFor { $0.contains("quire-exited-0") })
    }

    /// A real conflict, settled on the resolve screen per field and per hunk; the resolution
    /// syncs by itself and the other device gets exactly what was chosen.
    @Test func aConflictIsResolvedOnTheDiffScreenAndSyncs() throws {
        let (server, a, b) = try twoDevices()
        defer {
            // The server must outlive the devices' last sync: it stops when released.
            withExtendedLifetime(server) {}
            for device in [a, b] { try? FileManager.default.removeItem(atPath: device.home) }
        }
        #expect(try a.cli("add", "Shopping", "--body", "milk\nbread\neggs\n").status == 0)
        #expect(try a.cli("sync").status == 0)
        #expect(try b.cli("sync").status == 0)
        let listed = try a.cli("list", "--json")
        let id = try #require(try JSONDecoder().decode([Item].self, from: Data(listed.output.utf8)).first?.id)
        #expect(
            try a.cli("edit", id, "--title", "Shopping for Sunday", "--body", "milk\nrye bread\neggs\n").status == 0)
        #expect(try b.cli("edit", id, "--title", "Shopping list", "--body", "milk\nwhite bread\neggs\n").status == 0)
        #expect(try b.cli("sync").status == 0)
        #expect(try a.cli("sync").status == 5, "the same title and the same body line changed on both")

        let tmux = try Tmux(script: a.script(), directory: a.home)
        #expect(tmux.waitFor { $0.contains("1 needs review · press c") }, "\(tmux.capture())")
        tmux.keys("c")
        #expect(
            tmux.waitFor { $0.contains("Resolve Shopping for Sunday") && $0.contains("white bread") },
            "\(tmux.capture())")
        tmux.keys("r")  // the title: the other device's
        tmux.keys("b")  // the body hunk: both lines
        #expect(tmux.waitFor { $0.contains("✓ remote") }, "\(tmux.capture())")
        tmux.keys("Enter")
        #expect(
            tmux.waitFor(timeout: 20) { $0.contains("All changes synced") && $0.contains("Shopping list") },
            "\(tmux.capture())")
        tmux.keys("q")
        #expect(tmux.waitFor { $0.contains("quire-exited-0") })

        #expect(try b.cli("sync").status == 0)
        let shown = try b.cli("show", id, "--json")
        let item = try JSONDecoder().decode(Item.self, from: Data(shown.output.utf8))
        #expect(item.title == "Shopping list")
        #expect(item.body == "milk\nrye bread\nwhite bread\neggs\n")
        #expect(try a.cli("conflicts").output.contains("No items need review"))
    }

    /// Live sync: a note saved in one app is on the other app's screen with no key pressed, far
    /// sooner than the minute's pull; and settings changed in another terminal take effect in a
    /// running app within moments, with no key pressed either.
    @Test func aNoteSavedInOneAppAppearsInTheOtherWithNoKeyPressed() throws {
        let (server, a, b) = try twoDevices()
        defer {
            withExtendedLifetime(server) {}
            for device in [a, b] { try? FileManager.default.removeItem(atPath: device.home) }
        }
        let laptop = try Tmux(script: a.script(), directory: a.home)
        let phone = try Tmux(script: b.script(), directory: b.home)
        #expect(laptop.waitFor(timeout: 20) { $0.contains("live") }, "\(laptop.capture())")
        #expect(phone.waitFor(timeout: 20) { $0.contains("live") }, "\(phone.capture())")

        laptop.keys("a")
        laptop.type("Saved on the laptop")
        laptop.keys("C-s")
        // The periodic pull comes once a minute: ten seconds can only be the hint.
        #expect(phone.waitFor(timeout: 10) { $0.contains("Saved on the laptop") }, "\(phone.capture())")

        // `quire remote remove` in another terminal: the running app follows at once.
        #expect(try b.cli("remote", "remove").status == 0)
        #expect(phone.waitFor(timeout: 5) { $0.contains("no remote set") }, "\(phone.capture())")
        #expect(try b.cli("remote", "set", server.url, "--token", server.token).status == 0)
        #expect(try a.cli("add", "Added while the phone was away").status == 0)
        #expect(try a.cli("sync").status == 0)
        #expect(
            phone.waitFor(timeout: 10) { $0.contains("Added while the phone was away") && $0.contains("live") },
            "\(phone.capture())")

        for tmux in [laptop, phone] {
            tmux.keys("q")
            #expect(tmux.waitFor { $0.contains("quire-exited-0") })
        }
    }

    /// A task box ticked in a note's item view (`b`) on one device is ticked on the other: the
    /// tick is an edit of the body that syncs by itself, shown on the other device's screen.
    @Test func aTaskBoxTickedInANoteSyncsToTheOtherDevice() throws {
        let (server, a, b) = try twoDevices()
        defer {
            withExtendedLifetime(server) {}
            for device in [a, b] { try? FileManager.default.removeItem(atPath: device.home) }
        }
        #expect(try a.cli("add", "Packing", "--body", "- [ ] passport\n- [ ] charger").status == 0)
        #expect(try a.cli("sync").status == 0)
        #expect(try b.cli("sync").status == 0)
        let laptop = try Tmux(script: a.script(), directory: a.home)
        let phone = try Tmux(script: b.script(), directory: b.home)
        #expect(phone.waitFor(timeout: 20) { $0.contains("Packing") }, "\(phone.capture())")
        phone.keys("Enter", "m")  // the raw text, as typed
        #expect(phone.waitFor { $0.contains("- [ ] passport") }, "\(phone.capture())")

        #expect(laptop.waitFor(timeout: 20) { $0.contains("Packing") }, "\(laptop.capture())")
        laptop.keys("Enter", "b")
        #expect(laptop.waitFor { $0.contains("[x] passport") && $0.contains("[ ] charger") }, "\(laptop.capture())")
        #expect(
            laptop.waitFor(timeout: 20) { $0.contains("All changes synced") && !$0.contains("pending") },
            "\(laptop.capture())")

        // On the other device: on its screen (the live hint, or `s`) and in its store.
        phone.keys("s")
        #expect(
            phone.waitFor(timeout: 10) { $0.contains("- [x] passport") && $0.contains("- [ ] charger") },
            "\(phone.capture())")
        let stored = try b.cli("list", "--json").output
        #expect(stored.contains("- [x] passport\\n- [ ] charger"), "\(stored)")

        for tmux in [laptop, phone] {
            tmux.keys("q", "q")
            #expect(tmux.waitFor { $0.contains("quire-exited-0") })
        }
    }
}
