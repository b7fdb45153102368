import Foundation

/// The real `quire-server` executable on a loopback port, on a fresh SQLite file, for one
/// benchmark run.
final class BenchServer {
    let directory: String
    let process: Process
    let url: String
    let token: String
    let binary: String
    let database: String
    /// The server's process id, to read its memory.
    var pid: Int32 { process.processIdentifier }

    /// How the server's process competes with the device's for the machine's cores.
    enum Priority {
        /// At the same priority as everything else: the server shares the device's machine.
        case normal
        /// Under `SCHED_IDLE` (through `chrt`, so every thread it starts inherits it): it runs
        /// only on a core nothing else wants, standing for a server on another machine. On
        /// loopback the server otherwise takes more CPU than the device it serves.
        case background
    }

    init(binary: String, serving extra: [String] = [], priority: Priority = .normal) throws {
        self.binary = binary
        directory = NSTemporaryDirectory() + "quire-sync-bench-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let database = directory + "/server.db"
        self.database = database

        token = try BenchServer.addUser("bench", binary: binary, database: database)

        process = Process()
        let arguments = ["serve", "--port", "0", "--db", database, "--rate-limit", "0"] + extra
        switch priority {
        case .normal:
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
        case .background:
            // util-linux is essential on Debian; chrt execs the server, so `pid` stays its own.
            let chrt = "/usr/bin/chrt"
            guard FileManager.default.isExecutableFile(atPath: chrt) else {
                throw BenchFailure("\(chrt) (util-linux) is needed to run the server in the background")
            }
            process.executableURL = URL(fileURLWithPath: chrt)
            process.arguments = ["--idle", "0", binary] + arguments
        }
        let log = Pipe()
        process.standardError = log
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The server says where it listens: "listening on http://127.0.0.1:PORT".
        var seen = ""
        var found: String?
        let deadline = Date().addingTimeInterval(30)
        while found == nil && Date() < deadline {
            let chunk = log.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
            if let range = seen.range(of: "listening on http") {
                let rest = seen[seen.index(range.upperBound, offsetBy: -4)...]
                if let end = rest.firstIndex(where: { $0 == "\n" || $0 == " " }) {
                    found = String(rest[..<end])
                }
            }
        }
        guard let found else {
            process.terminate()
            throw BenchFailure("quire-server did not start: \(seen)")
        }
        url = found
        // Keep draining the log so the server never blocks on a full pipe.
        log.fileHandleForReading.readabilityHandler = { handle in _ = handle.availableData }
    }

    /// Adds another user; its token.
    func addUser(_ name: String) throws -> String {
        try BenchServer.addUser(name, binary: binary, database: database)
    }

    /// `quire-server user add NAME`; the token it prints.
    static func addUser(_ name: String, binary: String, database: String) throws -> String {
        let add = Process()
        add.executableURL = URL(fileURLWithPath: binary)
        add.arguments = ["user", "add", name, "--db", database]
        let pipe = Pipe()
        add.standardOutput = pipe
        add.standardError = FileHandle.nullDevice
        try add.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        add.waitWithoutSpinning()
        guard add.terminationStatus == 0, let token = text.split(separator: "\n").last.map(String.init) else {
            throw BenchFailure("quire-server user add \(name) failed")
        }
        return token
    }

    /// The server's resident memory in MB (Linux `/proc`).
    func residentMegabytes() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ").compactMap({ Double($0) }).first
        else { return nil }
        return kilobytes / 1024
    }

    /// The server's CPU time so far, user and system, in seconds (Linux `/proc`).
    func cpuSeconds() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After the command's name in parentheses: state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func stop() {
        process.terminate()
        process.waitWithoutSpinning()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
