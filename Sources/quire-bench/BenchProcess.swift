import Foundation

/// One executable, started the same way for every timing: this process's environment plus a few
/// variables of its own, standard input closed, its errors on this process's standard error.
///
/// Why one place: the benchmarks that compare whole processes (Quire's alone, Quire's beside
/// another tool's) must start and wait for them identically, or the comparison measures the
/// harness.
struct BenchProcess {
    let executable: String
    let environment: [String: String]

    /// The executable's name, for error messages.
    var name: String { URL(fileURLWithPath: executable).lastPathComponent }

    /// The executable with `arguments`, not yet started, writing its output to `output` (a
    /// `Pipe` or a `FileHandle`).
    func process(_ arguments: [String], output: Any) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, own in own }
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        process.standardInput = FileHandle.nullDevice
        return process
    }

    /// Wall time of one whole process, in milliseconds, its output dropped; it must exit 0.
    func time(_ arguments: [String]) throws -> Double {
        let process = self.process(arguments, output: FileHandle.nullDevice)
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        process.waitWithoutSpinning()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
        try check(process, arguments)
        return elapsed
    }

    /// Wall time of one whole process whose output goes to a pipe, read to its end as a script
    /// reading it would, and that output; it must exit 0.
    func timeReading(_ arguments: [String]) throws -> (milliseconds: Double, output: String) {
        let pipe = Pipe()
        let process = self.process(arguments, output: pipe)
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        var output = Data()
        while let chunk = try pipe.fileHandleForReading.read(upToCount: 1 << 16), !chunk.isEmpty {
            output.append(chunk)
        }
        process.waitWithoutSpinning()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
        try check(process, arguments)
        return (elapsed, String(decoding: output, as: UTF8.self))
    }

    /// What the process prints, untimed: versions, and checks between timed runs.
    func output(_ arguments: [String]) throws -> String {
        try timeReading(arguments).output
    }

    func check(_ process: Process, _ arguments: [String]) throws {
        guard process.terminationStatus == 0 else {
            throw CLIBenchError("\(name) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
    }
}

extension Process {
    /// Blocks until the process has ended, without taking a core meanwhile.
    ///
    /// Foundation's `waitUntilExit` on Linux turns the calling thread's run loop until the
    /// process ends; on a thread with nothing in its run loop (any thread but the main one, so
    /// every async context here) that loop returns at once, and it spins: waiting a second for
    /// `sleep 1` from a Dispatch thread cost a second of CPU. On two cores that took one from
    /// the very process being timed. `waitid` with `WNOWAIT` sleeps until the child has exited
    /// and leaves it for Foundation to reap (its status stays Foundation's to read), so the
    /// `waitUntilExit` after it returns at once.
    func waitWithoutSpinning() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
        waitUntilExit()
    }
}
