/// A row of block characters, one per sample, for the outbox depth over time.
public enum Sparkline {
    /// From empty to full; the lowest bar also stands for zero, so the row never has gaps.
    public static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// The newest `width` samples as bars, scaled so the largest one shown is a full block.
    ///
    /// Zero is always the lowest bar and any non-zero sample at least the second, so a short
    /// outbox next to a long one still shows that something was waiting.
    public static func bars(_ samples: [Int], width: Int) -> String {
        guard width > 0 else { return "" }
        let shown = samples.suffix(width).map { max(0, $0) }
        let largest = shown.max() ?? 0
        let top = levels.count - 1
        return String(
            shown.map { sample -> Character in
                guard sample > 0, largest > 0 else { return levels[0] }
                let level = Int((Double(sample) / Double(largest) * Double(top)).rounded())
                return levels[min(top, max(1, level))]
            })
    }
}
