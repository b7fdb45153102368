/// The one line long work shows while it runs (`quire import`, a first `quire sync`):
/// `importing 412,000 of 1,000,000 items · 41% · 6,850/s · 1m 26s left`.
///
/// Pure formatting: the shell measures, decides whether standard error is a terminal, and
/// writes the line over itself. When the total is not known, the line says what is done and
/// the rate; when the share done is known another way (bytes of a file read), the percentage
/// and the time left come from it.
public struct ProgressLine: Sendable {
    /// What is being done, as the line starts: `importing`, `pulling`.
    public var verb: String
    /// What is counted, plural: `items`, `changes`.
    public var unit: String

    public init(verb: String, unit: String = "items") {
        self.verb = verb
        self.unit = unit
    }

    /// The line after `done` of `total` (nil when unknown) in `elapsed` seconds; `fraction`
    /// is the share done when the total is not known but the share is (0...1).
    public func text(done: Int, total: Int? = nil, fraction: Double? = nil, elapsed: Double) -> String {
        var parts: [String]
        if let total {
            parts = ["\(verb) \(Self.grouped(done)) of \(Self.grouped(total)) \(unit)"]
        } else {
            parts = ["\(verb) \(Self.grouped(done)) \(unit)"]
        }
        let share = total.map { $0 > 0 ? Double(done) / Double($0) : 1 } ?? fraction
        if let share { parts.append("\(Int((min(max(share, 0), 1) * 100).rounded(.down)))%") }
        if elapsed > 0 { parts.append("\(Self.grouped(Int((Double(done) / elapsed).rounded())))/s") }
        if let share, share > 0, share < 1, elapsed > 0 {
            parts.append(Self.duration(elapsed * (1 - share) / share) + " left")
        }
        return parts.joined(separator: " · ")
    }

    /// `1234567` → `1,234,567`.
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// `86` → `1m 26s`; `7` → `7s`; `3700` → `1h 1m` (seconds rounded up).
    public static func duration(_ seconds: Double) -> String {
        SpokenDuration.text(seconds: Int(seconds.rounded(.up)))
    }
}
