/// Why an import file cannot be read, and where: one line naming the entry, line or file.
public struct ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the problem is, e.g. `entry 3`, `line 12`, `notes/milk.md line 4`.
    public var location: String
    public var reason: String

    public init(_ location: String, _ reason: String) {
        self.location = location
        self.reason = reason
    }

    public var description: String { location.isEmpty ? reason : "\(location): \(reason)" }
}
