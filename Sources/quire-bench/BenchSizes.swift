import Foundation

/// Store sizes as the benchmarks take them (`--sizes 1000,10000,100000`, from `SIZES`) and as
/// their tables name them (`1k`, `1M`).
enum BenchSizes {
    /// The item counts of a comma-separated list; what is not a number is left out.
    static func parse(_ text: String) -> [Int] {
        text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// 1000 as "1k", 1000000 as "1M"; other counts as they are.
    static func label(_ items: Int) -> String {
        if items >= 1_000_000 && items % 1_000_000 == 0 { return "\(items / 1_000_000)M" }
        if items >= 1000 && items % 1000 == 0 { return "\(items / 1000)k" }
        return "\(items)"
    }
}
