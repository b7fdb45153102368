/// Which lines of two texts a diff holds for the same line, and how to carry one side's view of
/// the base to the other side of a merge.
///
/// A diff is an alignment: the lines outside its hunks are matched, in order. When a line moved
/// (`x m` became `m x`), a diff may keep `x` or keep `m`, both equally short, and the two sides of
/// a merge, each diffed on its own, may choose differently. Carrying one side's alignment through
/// a diff of the two sides gives the other side an alignment that agrees with it wherever the
/// two sides hold the same lines.
enum Alignment {
    /// The matched (old, new) line pairs of a diff, in order.
    static func matches(_ hunks: [LineDiff.Hunk], oldCount: Int) -> [(old: Int, new: Int)] {
        var pairs: [(old: Int, new: Int)] = []
        var (old, new) = (0, 0)
        for hunk in hunks {
            while old < hunk.old.lowerBound {
                pairs.append((old, new))
                old += 1
                new += 1
            }
            (old, new) = (hunk.old.upperBound, hunk.new.upperBound)
        }
        while old < oldCount {
            pairs.append((old, new))
            old += 1
            new += 1
        }
        return pairs
    }

    /// The hunks of an alignment given by its matched pairs (increasing in both).
    static func hunks(_ pairs: [(old: Int, new: Int)], oldCount: Int, newCount: Int) -> [LineDiff.Hunk] {
        var result: [LineDiff.Hunk] = []
        var (old, new) = (0, 0)
        for pair in pairs + [(oldCount, newCount)] {
            if pair.old > old || pair.new > new {
                result.append(LineDiff.Hunk(old: old..<pair.old, new: new..<pair.new))
            }
            (old, new) = (pair.old + 1, pair.new + 1)
        }
        return result
    }

    /// The other side's diff against the base, as `side` (this side's diff against the base)
    /// and `between` (a diff from this side to the other) align it; nil when that matches fewer
    /// lines than `other`, the other side's own diff (it would not be a shortest diff, and
    /// would see changes that side did not make).
    static func carried(
        _ side: [LineDiff.Hunk], through between: [LineDiff.Hunk], toMatch other: [LineDiff.Hunk], base: Int
    ) -> [LineDiff.Hunk]? {
        let sideCount = base + side.reduce(0) { $0 + $1.new.count - $1.old.count }
        let otherCount = base + other.reduce(0) { $0 + $1.new.count - $1.old.count }
        var baseLine = [Int?](repeating: nil, count: sideCount)
        for pair in matches(side, oldCount: base) { baseLine[pair.new] = pair.old }
        let carried = matches(between, oldCount: sideCount).compactMap { pair -> (old: Int, new: Int)? in
            baseLine[pair.old].map { ($0, pair.new) }
        }
        guard carried.count == matches(other, oldCount: base).count else { return nil }
        return hunks(carried, oldCount: base, newCount: otherCount)
    }
}
