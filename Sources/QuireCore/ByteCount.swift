import Foundation

/// Sizes as people read and type them, in powers of 1024.
public enum ByteCount {
    /// `512 B`, `12.3 KB`, `4.5 MB`.
    public static func text(_ count: some BinaryInteger) -> String {
        let count = Int64(count)
        if count < 1024 { return "\(count) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(count) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: value < 10 ? "%.1f " : "%.0f ", value) + units[unit]
    }

    /// Reads `4096`, `512K`, `100MiB`, `1GB`, `2 g` (a unit of K, M, G or T, with or without
    /// `B` or `iB`, any case, means powers of 1024); nil for anything else or a negative size.
    public static func parse(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let number = Int64(digits) else { return nil }
        var unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        for suffix in ["ib", "b"] where unit.hasSuffix(suffix) {
            unit = String(unit.dropLast(suffix.count))
            break
        }
        let shifts: [String: Int64] = ["": 0, "k": 10, "m": 20, "g": 30, "t": 40]
        guard let shift = shifts[unit] else { return nil }
        let (result, overflow) = number.multipliedReportingOverflow(by: 1 << shift)
        return overflow ? nil : result
    }
}
