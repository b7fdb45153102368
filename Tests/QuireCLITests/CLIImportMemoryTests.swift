import Foundation
import QuireTestSupport
import Testing

/// `quire import` reads its file while it writes the store: a file far larger than the memory
/// the process may use imports whole, all or nothing.
@Suite struct CLIImportMemoryTests {
    /// The highest resident memory (`VmHWM`) the process reached, read from /proc until it exits.
    static func peakMemory(of process: SpawnedProcess) -> Int {
        var peak = 0
        while process.isRunning {
            if let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
            {
                peak = max(peak, kilobytes * 1024)
            }
            usleep(5_000)
        }
        return peak
    }

    @Test func aFileLargerThanTheMemoryLimitImportsWithFlatMemory() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let count = 6_000
        let body = String(repeating: "a line of words to index and keep ", count: 480)  // 16 KB
        let file = cli.home + "/large.json"
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.write(contentsOf: Data("[".utf8))
        for index in 0..<count {
            let entry = (index == 0 ? "" : ",\n") + "{\"title\": \"large \(index)\", \"body\": \"\(body)\"}"
            try handle.write(contentsOf: Data(entry.utf8))
        }
        try handle.write(contentsOf: Data("]\n".utf8))
        try handle.close()
        let fileBytes = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        #expect(fileBytes > 95_000_000)

        let (process, capture) = try cli.start(["import", file])
        let peak = Self.peakMemory(of: process)
        let result = QuireCLI.collect(process, capture)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("imported 6000 items"))
        #expect(
            peak > 0 && peak < 100_000_000, "peak memory \(peak / 1_000_000) MB for a \(fileBytes / 1_000_000) MB file")
        #expect(try cli.allItems().count == count)
    }
}
