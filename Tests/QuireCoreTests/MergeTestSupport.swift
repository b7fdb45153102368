import Foundation

@testable import QuireCore

/// The seeds property tests run: `QUIRE_MERGE_SEED=N` replays one case, else a fixed range.
func propertySeeds(count: Int) -> [UInt64] {
    if let text = ProcessInfo.processInfo.environment["QUIRE_MERGE_SEED"], let seed = UInt64(text) {
        return [seed]
    }
    // `make merge-soak` runs many more cases than `make test` has time for.
    let cases = ProcessInfo.processInfo.environment["QUIRE_MERGE_CASES"].flatMap { Int($0) } ?? count
    return (1...UInt64(max(cases, 1))).map { $0 }
}

/// Joins lines that each end in a newline.
func text(_ lines: [String]) -> String {
    lines.map { $0 + "\n" }.joined()
}

/// The length of the longest common subsequence, by the textbook table (the oracle that a
/// shortest edit script must match).
func lcsLength<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
    guard !a.isEmpty, !b.isEmpty else { return 0 }
    var previous = [Int](repeating: 0, count: b.count + 1)
    var current = previous
    for i in 1...a.count {
        for j in 1...b.count {
            current[j] = a[i - 1] == b[j - 1] ? previous[j - 1] + 1 : max(previous[j], current[j - 1])
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

/// Applies hunks to `old`, taking the new lines from `new`: what a correct diff must rebuild.
func applyHunks<T>(_ hunks: [LineDiff.Hunk], old: [T], new: [T]) -> [T] {
    var result: [T] = []
    var position = 0
    for hunk in hunks {
        result += old[position..<hunk.old.lowerBound]
        result += new[hunk.new]
        position = hunk.old.upperBound
    }
    result += old[position...]
    return result
}

/// One side's edit of a base made of distinct lines: the base lines in `range` are replaced by
/// `lines` (fresh lines that occur nowhere else).
struct RegionEdit: Hashable, CustomStringConvertible {
    var range: Range<Int>
    var lines: [String]

    var description: String { "\(range)->\(lines)" }

    /// The same collision rule the merge promises: overlapping ranges, insertions at one place,
    /// or an insertion strictly inside a replaced range.
    func collides(with other: RegionEdit) -> Bool {
        switch (range.isEmpty, other.range.isEmpty) {
        case (false, false): return range.overlaps(other.range)
        case (true, true): return range.lowerBound == other.range.lowerBound
        case (true, false):
            return other.range.lowerBound < range.lowerBound && range.lowerBound < other.range.upperBound
        case (false, true):
            return range.lowerBound < other.range.lowerBound && other.range.lowerBound < range.upperBound
        }
    }
}

/// Random, non-touching edits of a base of `count` lines; fresh lines are named with `tag`.
func randomEdits(baseCount: Int, tag: String, maxEdits: Int, using random: inout SeededRandom) -> [RegionEdit] {
    var edits: [RegionEdit] = []
    var position = 0
    var serial = 0
    let wanted = Int.random(in: 0...maxEdits, using: &random)
    while edits.count < wanted && position <= baseCount {
        let start = position + Int.random(in: 0...3, using: &random)
        guard start <= baseCount else { break }
        let length = min(Int.random(in: 0...3, using: &random), baseCount - start)
        var count = Int.random(in: 0...3, using: &random)
        if length == 0 && count == 0 { count = 1 }
        let lines = (0..<count).map { _ -> String in
            serial += 1
            return "\(tag)\(serial)"
        }
        edits.append(RegionEdit(range: start..<(start + length), lines: lines))
        // At least one untouched line before the next edit, so that the diff sees separate hunks.
        position = start + length + 1
    }
    return edits
}

/// The base with some edits (sorted, within the range) applied.
func apply(_ edits: [RegionEdit], to base: [String], within range: Range<Int>? = nil) -> [String] {
    let range = range ?? 0..<base.count
    var result: [String] = []
    var position = range.lowerBound
    for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
        result += base[position..<edit.range.lowerBound]
        result += edit.lines
        position = edit.range.upperBound
    }
    result += base[position..<range.upperBound]
    return result
}
