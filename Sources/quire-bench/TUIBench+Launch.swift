import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the release `quire` on a pseudo-terminal, as a person's terminal would.
struct TUIBenchLaunch {
    let quire: String
    let home: String
    /// How many live items the store holds: the first full frame's status bar says `1/total`.
    let total: Int
    let width: UInt16 = 120
    let height: UInt16 = 40

    /// Linux's TIOCSPTLCK, TIOCGPTN and glibc's POSIX_SPAWN_SETSID (macros Swift cannot import).
    static let setPtyLock: UInt = 0x4004_5431
    static let getPtyNumber: UInt = 0x8004_5430
    static let spawnSetSID: Int16 = 0x80

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A running quire on a fresh pty.
    final class Session {
        let master: Int32
        let pid: pid_t
        var output: [UInt8] = []

        init(master: Int32, pid: pid_t) {
            self.master = master
            self.pid = pid
        }

        /// Reads until `text` appears in the output (from `from` on) or the timeout passes.
        func read(until text: String, from start: Int = 0, timeout: Double = 10) -> Bool {
            let needle = Array(text.utf8)
            let deadline = Date(timeIntervalSinceNow: timeout)
            var buffer = [UInt8](repeating: 0, count: 65536)
            while Date() < deadline {
                if Session.contains(output, needle, from: start) { return true }
                var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                if poll(&descriptor, 1, 50) > 0 {
                    let count = Glibc.read(master, &buffer, buffer.count)
                    if count <= 0 { return Session.contains(output, needle, from: start) }
                    output.append(contentsOf: buffer[0..<count])
                }
            }
            return Session.contains(output, needle, from: start)
        }

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBufferPointer { Glibc.write(master, $0.baseAddress, $0.count) }
        }

        func finish() {
            send("q")
            var status: Int32 = 0
            let deadline = Date(timeIntervalSinceNow: 5)
            while waitpid(pid, &status, WNOHANG) == 0 {
                _ = read(until: "\u{0}", timeout: 0.05)
                if Date() > deadline {
                    kill(pid, SIGKILL)
                    waitpid(pid, &status, 0)
                    break
                }
            }
            close(master)
        }

        static func contains(_ haystack: [UInt8], _ needle: [UInt8], from start: Int) -> Bool {
            guard needle.count <= haystack.count - start else { return false }
            var index = start
            while index + needle.count <= haystack.count {
                if haystack[index] == needle[0], Array(haystack[index..<(index + needle.count)]) == needle {
                    return true
                }
                index += 1
            }
            return false
        }
    }

    func start() throws -> Session {
        // /dev/ptmx directly: posix_openpt and friends are not visible to Swift on Linux.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, TUIBenchLaunch.setPtyLock, &unlock) == 0,
            ioctl(master, TUIBenchLaunch.getPtyNumber, &number) == 0
        else { throw Failure(description: "cannot open a pseudo-terminal") }
        let slavePath = "/dev/pts/\(number)"
        var size = winsize(ws_row: height, ws_col: width, ws_xpixel: 0, ws_ypixel: 0)
        let slave = open(slavePath, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw Failure(description: "cannot open \(slavePath)") }
        _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
        close(slave)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        posix_spawn_file_actions_addclose(&actions, master)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, TUIBenchLaunch.spawnSetSID)

        let environment = [
            "TERM=xterm-256color", "LANG=C.UTF-8", "QUIRE_HOME=\(home)", "HOME=\(home)",
            "PATH=/usr/bin:/bin", "EDITOR=true",
        ]
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(quire), nil]
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, quire, &actions, &attributes, &argv, &envp)
        guard result == 0 else {
            throw Failure(description: "cannot start \(quire): \(String(cString: strerror(result)))")
        }
        return Session(master: master, pid: pid)
    }

    /// Milliseconds from starting quire until its first frame is complete: the status bar,
    /// drawn last, shows the selection's position in the list.
    func timeFirstFrame() throws -> Double {
        let started = DispatchTime.now().uptimeNanoseconds
        let session = try start()
        guard session.read(until: " 1/\(total)") else {
            session.finish()
            throw Failure(
                description: "quire drew no first frame: \(String(decoding: session.output.suffix(400), as: UTF8.self))"
            )
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
        session.finish()
        return elapsed
    }

    /// Peak resident memory (MB) of a quire that went to the bottom, paged and searched.
    func peakMemoryAfterUse() throws -> Double {
        let session = try start()
        defer { session.finish() }
        guard session.read(until: " 1/") else { throw Failure(description: "quire drew no first frame") }
        var mark = session.output.count
        session.send("G")
        _ = session.read(until: "/", from: mark, timeout: 2)
        for _ in 0..<20 {
            mark = session.output.count
            session.send("\u{1b}[5~")  // PgUp
            _ = session.read(until: "/", from: mark, timeout: 2)
        }
        mark = session.output.count
        session.send("/garden")
        _ = session.read(until: "garden", from: mark, timeout: 2)
        mark = session.output.count
        session.send("\u{1b}")
        _ = session.read(until: "/", from: mark, timeout: 2)
        guard let status = try? String(contentsOfFile: "/proc/\(session.pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { throw Failure(description: "cannot read the process's memory") }
        let kilobytes = Double(line.split(separator: " ").compactMap { Int($0) }.first ?? 0)
        return kilobytes / 1024
    }
}
