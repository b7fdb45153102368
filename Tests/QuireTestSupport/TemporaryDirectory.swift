import Foundation

/// A fresh directory of its own under the temporary folder, for a test's store files, homes
/// and logs; the caller removes it.
public func makeTemporaryDirectory(_ prefix: String) throws -> String {
    let path = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
