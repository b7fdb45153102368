import Foundation

/// This package's executables (`quire`, `quire-server`), found in the build products folder
/// that holds the running test bundle, whatever the configuration or scratch path.
public enum BuiltProduct {
    /// The executable's path, or nil when it is not built.
    public static func path(_ name: String) -> String? {
        var folders: [URL] = []
        if let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: me).deletingLastPathComponent())
        }
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        folders.append(Bundle.main.bundleURL)
        for folder in folders {
            // On some runners the test executable sits inside a bundle folder (X.xctest/...).
            var current = folder
            for _ in 0..<4 {
                let candidate = current.appendingPathComponent(name).path
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
                current = current.deletingLastPathComponent()
            }
        }
        return nil
    }
}
