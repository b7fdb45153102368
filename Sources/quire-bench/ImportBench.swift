import ArgumentParser
import Foundation
import QuireCore

/// `quire import` of whole files at growing sizes: wall time, items per second and the peak
/// memory of the process, for a JSON export and for a Taskwarrior export.
///
/// Why whole processes and files on disk: the claim is that memory stays flat whatever the
/// file's size, which only the kernel's count of the process's peak resident memory shows.
struct ImportBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Time quire import of JSON and Taskwarrior files of growing size; report peak memory.")

    @Option(help: "The quire executable to time.")
    var quire: String

    @Option(help: "Where to write the Markdown fragment (default: standard output).")
    var output: String?

    @Option(help: "File sizes in items, comma-separated.")
    var sizes: String = "1000,10000,100000"

    func run() throws {
        let sizeList = BenchSizes.parse(sizes)
        var rows: [String] = []
        var results: [ImportBenchFormat: [Int: ImportBenchResult]] = [:]
        for format in ImportBenchFormat.allCases {
            for size in sizeList {
                let result = try measure(format, size: size)
                results[format, default: [:]][size] = result
                FileHandle.standardError.write(
                    Data("import bench: \(format.rawValue) \(size) items, \(result.seconds) s\n".utf8))
            }
        }
        for format in ImportBenchFormat.allCases {
            for size in sizeList {
                guard let result = results[format]?[size] else { continue }
                rows.append(
                    "| \(format.rawValue) | \(BenchSizes.label(size)) | \(String(format: "%.2f", result.seconds)) s"
                        + " | \(Int((Double(size) / result.seconds).rounded())) | \(result.peakBytes / 1_000_000) MB |")
            }
        }
        let markdown = ImportBenchReport.markdown(rows: rows, results: results, sizes: sizeList)
        if let output {
            try markdown.write(toFile: output, atomically: true, encoding: .utf8)
        } else {
            print(markdown, terminator: "")
        }
    }

    private func measure(_ format: ImportBenchFormat, size: Int) throws -> ImportBenchResult {
        let home = NSTemporaryDirectory() + "quire-bench-import-\(size)-\(getpid())"
        try? FileManager.default.removeItem(atPath: home)
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let file = home + "/import.json"
        try ImportBenchData.write(format, count: size, to: file)
        var arguments = ["import", file]
        if format == .taskwarrior { arguments += ["--format", "taskwarrior"] }
        return try ImportBenchResult.run(quire, arguments, home: home)
    }
}

enum ImportBenchFormat: String, CaseIterable, Hashable {
    case json = "JSON (`quire export`)"
    case taskwarrior = "Taskwarrior (`task export`)"
}

/// One whole `quire import` process: its wall time and the kernel's count of its peak memory.
struct ImportBenchResult {
    var seconds: Double
    var peakBytes: Int

    /// Spawns and reaps the process itself: `wait4` gives that one child's peak resident set.
    static func run(_ executable: String, _ arguments: [String], home: String) throws -> ImportBenchResult {
        var environment = ProcessInfo.processInfo.environment
        environment["QUIRE_HOME"] = home
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        guard posix_spawn(&pid, executable, &actions, nil, argv, envp) == 0 else {
            throw CLIBenchError("cannot start \(executable)")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard status == 0 else { throw CLIBenchError("quire \(arguments.joined(separator: " ")) failed (\(status))") }
        return ImportBenchResult(seconds: seconds, peakBytes: usage.ru_maxrss * 1024)
    }
}

/// Import files written straight to disk, a few hundred kilobytes at a time, so that the bench
/// itself stays small at a million items.
enum ImportBenchData {
    static func write(_ format: ImportBenchFormat, count: Int, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw CLIBenchError("cannot write \(path)") }
        defer { try? handle.close() }
        var random = SeededRandom(seed: UInt64(count))
        var bytes: [UInt8] = Array("[".utf8)
        for index in 0..<count {
            bytes.append(contentsOf: Array((index == 0 ? "\n" : ",\n").utf8))
            let title = CLIBenchData.words(4, &random)
            let body = CLIBenchData.words(30, &random)
            switch format {
            case .json:
                bytes.append(contentsOf: Array("{\"title\":".utf8))
                CompactJSON.appendString("Imported " + title, to: &bytes)
                bytes.append(contentsOf: Array(",\"kind\":\"task\",\"body\":".utf8))
                CompactJSON.appendString(body, to: &bytes)
                bytes.append(contentsOf: Array(",\"tags\":[\"imported\"],\"priority\":\"low\"}".utf8))
            case .taskwarrior:
                let uuid = (0..<4).map { _ in String(random.next() % (1 << 32), radix: 16) }
                    .map { String(repeating: "0", count: 8 - $0.count) + $0 }.joined()
                let dashed = [
                    uuid.prefix(8), uuid.dropFirst(8).prefix(4), "4" + uuid.dropFirst(13).prefix(3),
                    "8" + uuid.dropFirst(17).prefix(3), uuid.dropFirst(20).prefix(12),
                ].joined(separator: "-")
                let done = index % 10 != 0
                bytes.append(contentsOf: Array("{\"id\":\(done ? 0 : index),\"description\":".utf8))
                CompactJSON.appendString(title, to: &bytes)
                bytes.append(
                    contentsOf: Array(
                        (",\"entry\":\"20260101T090000Z\",\"modified\":\"20260102T090000Z\",\"status\":\""
                            + (done ? "completed\",\"end\":\"20260103T090000Z\"" : "pending\"")
                            + ",\"uuid\":\"\(dashed)\",\"priority\":\"M\",\"project\":\"home\",\"tags\":[\"bench\"],"
                            + "\"annotations\":[{\"entry\":\"20260101T100000Z\",\"description\":").utf8))
                CompactJSON.appendString(body, to: &bytes)
                bytes.append(contentsOf: Array("}]}".utf8))
            }
            if bytes.count > 1 << 18 {
                try handle.write(contentsOf: bytes)
                bytes.removeAll(keepingCapacity: true)
            }
        }
        bytes.append(contentsOf: Array("\n]\n".utf8))
        try handle.write(contentsOf: bytes)
    }
}

enum ImportBenchReport {
    static func markdown(rows: [String], results: [ImportBenchFormat: [Int: ImportBenchResult]], sizes: [Int])
        -> String
    {
        var lines =
            [
                "## Import",
                "",
                "`quire import` of a whole file into an empty store, one process per run: wall time, items",
                "per second, and the process's peak resident memory (`wait4`). Items carry a 4-word title and",
                "a 30-word body; Taskwarrior tasks also a project, a tag and an annotation. The file is read",
                "while the store is written, so memory should not grow with the file. Targets: peak memory",
                "under 100 MB at any size, at least 100,000 items per second.",
                "",
                "| file | items | time | items/s | peak memory |",
                "| --- | ---: | ---: | ---: | ---: |",
            ] + rows
        // The cost curve: how a measure changes from 100k to 1M items (near 1 for memory, and
        // for the time per item when the cost follows the work).
        if sizes.contains(100_000), sizes.contains(1_000_000) {
            lines += ["", "| file | time per item, 1M ÷ 100k | peak memory, 1M ÷ 100k |", "| --- | ---: | ---: |"]
            for format in ImportBenchFormat.allCases {
                guard let small = results[format]?[100_000], let large = results[format]?[1_000_000] else { continue }
                let perItem = (large.seconds / 1_000_000) / (small.seconds / 100_000)
                let memory = Double(large.peakBytes) / Double(small.peakBytes)
                lines.append(
                    "| \(format.rawValue) | \(String(format: "%.2f", perItem)) | \(String(format: "%.2f", memory)) |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
