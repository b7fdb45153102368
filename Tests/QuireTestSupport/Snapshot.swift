// Built without tests (`swift build`, release), this target is compiled too, where the
// Testing module is not on the search path.
#if canImport(Testing)
    import Foundation
    import TerminalUI
    import Testing

    /// Compares text with `Snapshots/<name>.txt` beside the calling test file; records it when
    /// `RECORD_SNAPSHOTS=1` (or when it is missing, which fails the test), and reports a line diff
    /// when it differs.
    public func assertSnapshot(
        _ actual: String, named name: String, filePath: String = #filePath,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let directory = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
        let file = directory.appendingPathComponent(name + ".txt")
        let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
        guard !record, let expected = try? String(contentsOf: file, encoding: .utf8) else {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? (actual + "\n").write(to: file, atomically: true, encoding: .utf8)
            // A missing snapshot must not pass silently (a fresh clone would compare nothing).
            if !record {
                Issue.record(
                    "snapshot \(name) was missing and has been recorded; check it in", sourceLocation: sourceLocation)
            }
            return
        }
        let trimmed = expected.hasSuffix("\n") ? String(expected.dropLast()) : expected
        if trimmed != actual {
            Issue.record(
                "snapshot \(name) differs (- recorded, + actual):\n\(TextDiff.lines(expected: trimmed, actual: actual))",
                sourceLocation: sourceLocation)
        }
    }
#endif
