/// Line-level differences between two texts: the shortest edit script (Myers, linear space).
///
/// Bodies are merged and shown line by line, so everything here works on lines. A line keeps
/// its `\n` terminator, which makes splitting and joining exact: a body that ends without a
/// newline, or with `\r\n` line ends, comes back byte for byte.
public enum LineDiff {
    /// One region where the old and the new text differ: `old` lines were replaced by `new` lines.
    ///
    /// Either range may be empty (a pure insertion or a pure deletion), never both. Hunks of one
    /// diff are sorted, disjoint, and separated by at least one unchanged line.
    public struct Hunk: Hashable, Sendable {
        public var old: Range<Int>
        public var new: Range<Int>

        public init(old: Range<Int>, new: Range<Int>) {
            self.old = old
            self.new = new
        }
    }

    /// Splits text into lines, each keeping its `\n`; `lines(of: t).joined() == t` always.
    ///
    /// Splits on the newline byte rather than on `Character`s, because Swift treats `\r\n` as
    /// one character and would otherwise never split Windows line ends.
    public static func lines(of text: String) -> [String] {
        var result: [String] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let next = utf8.index(after: index)
            if utf8[index] == UInt8(ascii: "\n") {
                result.append(String(decoding: utf8[start..<next], as: UTF8.self))
                start = next
            }
            index = next
        }
        if start != utf8.endIndex {
            result.append(String(decoding: utf8[start..<utf8.endIndex], as: UTF8.self))
        }
        return result
    }

    /// The hunks that turn the lines of `old` into the lines of `new`.
    public static func hunks(from old: String, to new: String) -> [Hunk] {
        var interner = LineInterner()
        return hunks(from: interner.ids(lines(of: old)), to: interner.ids(lines(of: new)))
    }

    /// The hunks of a shortest edit script turning `old` into `new`.
    public static func hunks<Element: Equatable>(from old: [Element], to new: [Element]) -> [Hunk] {
        var script = EditScript(old: old, new: new)
        script.solve()
        script.moveChangesToTheEndOfRuns()
        return script.hunks()
    }
}

/// Maps equal lines to equal small integers, so that the diff compares integers, not strings.
///
/// Lines are equal when their bytes are: Swift's `String` equality would call an accented
/// letter and its decomposed form equal, and a device that re-encodes a line would see its
/// change dropped. The three texts of a three-way merge share one interner so their ids are
/// comparable.
struct LineInterner {
    private var table: [[UInt8]: Int] = [:]

    mutating func ids(_ lines: [String]) -> [Int] {
        lines.map { id($0) }
    }

    mutating func id(_ line: String) -> Int {
        let bytes = Array(line.utf8)
        if let id = table[bytes] { return id }
        let id = table.count
        table[bytes] = id
        return id
    }
}

/// Myers' O(ND) difference algorithm in its linear-space form: find the middle snake of the
/// optimal path, then solve the two halves on either side of it.
///
/// The result is kept as two flag arrays (`deleted` for old lines, `inserted` for new lines);
/// the unflagged lines of both texts pair up in order as the common subsequence.
struct EditScript<Element: Equatable> {
    let old: [Element]
    let new: [Element]
    private(set) var deleted: [Bool]
    private(set) var inserted: [Bool]

    init(old: [Element], new: [Element]) {
        self.old = old
        self.new = new
        deleted = Array(repeating: false, count: old.count)
        inserted = Array(repeating: false, count: new.count)
    }

    mutating func solve() {
        compare(oldLow: 0, oldHigh: old.count, newLow: 0, newHigh: new.count)
    }

    /// Puts every change in a run of equal lines at the run's end, in both texts.
    ///
    /// Deleting one of three blank lines can be written as deleting the first, the second or
    /// the third; a shortest script picks one by accident of the search. Two sides that made
    /// the same change must be seen making it at the same place, or a merge applies it twice
    /// (or deletes two lines). Keeping the run's first lines paired and changing its last ones
    /// is one fixed choice; the pairs stay in order, so the script stays valid and as short.
    mutating func moveChangesToTheEndOfRuns() {
        EditScript.moveFlagsToTheEndOfRuns(&deleted, in: old)
        EditScript.moveFlagsToTheEndOfRuns(&inserted, in: new)
    }

    private static func moveFlagsToTheEndOfRuns(_ flags: inout [Bool], in lines: [Element]) {
        var start = 0
        while start < lines.count {
            var end = start + 1
            while end < lines.count && lines[end] == lines[start] { end += 1 }
            let flagged = flags[start..<end].reduce(0) { $1 ? $0 + 1 : $0 }
            for index in start..<end { flags[index] = index >= end - flagged }
            start = end
        }
    }

    /// Groups the flagged lines into hunks.
    func hunks() -> [LineDiff.Hunk] {
        var result: [LineDiff.Hunk] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            let oldChanged = i < old.count && deleted[i]
            let newChanged = j < new.count && inserted[j]
            if !oldChanged && !newChanged {
                i += 1
                j += 1
                continue
            }
            let oldStart = i
            let newStart = j
            while i < old.count && deleted[i] { i += 1 }
            while j < new.count && inserted[j] { j += 1 }
            result.append(LineDiff.Hunk(old: oldStart..<i, new: newStart..<j))
        }
        return result
    }

    private mutating func compare(oldLow: Int, oldHigh: Int, newLow: Int, newHigh: Int) {
        var oldLow = oldLow
        var oldHigh = oldHigh
        var newLow = newLow
        var newHigh = newHigh
        // Equal lines at either end are part of every shortest script: skip them.
        while oldLow < oldHigh && newLow < newHigh && old[oldLow] == new[newLow] {
            oldLow += 1
            newLow += 1
        }
        while oldLow < oldHigh && newLow < newHigh && old[oldHigh - 1] == new[newHigh - 1] {
            oldHigh -= 1
            newHigh -= 1
        }
        if oldLow == oldHigh {
            for j in newLow..<newHigh { inserted[j] = true }
            return
        }
        if newLow == newHigh {
            for i in oldLow..<oldHigh { deleted[i] = true }
            return
        }
        let n = oldHigh - oldLow
        let m = newHigh - newLow
        guard let split = splitPoint(oldLow: oldLow, n: n, newLow: newLow, m: m),
            (split.x, split.y) != (0, 0), (split.x, split.y) != (n, m)
        else {
            // No split within the cost cap (or none at all): replacing the whole range keeps
            // the script correct, merely not the shortest.
            for i in oldLow..<oldHigh { deleted[i] = true }
            for j in newLow..<newHigh { inserted[j] = true }
            return
        }
        compare(oldLow: oldLow, oldHigh: oldLow + split.x, newLow: newLow, newHigh: newLow + split.y)
        compare(oldLow: oldLow + split.x, oldHigh: oldHigh, newLow: newLow + split.y, newHigh: newHigh)
    }

    /// Above this many edits per half, the search gives up and the range is replaced whole.
    ///
    /// Myers' algorithm costs O((N+M)·D); a 1 MiB body rewritten from top to bottom would
    /// otherwise take seconds. Past this cap both sides of a merge changed so much that a
    /// precise alignment would not save the merge anyway.
    static var maxHalfCost: Int { 2_048 }

    /// A point on a shortest edit path roughly halfway along it, found by growing paths from
    /// both corners of the edit graph until a forward and a backward path overlap.
    ///
    /// Coordinates are relative to the range (`x` in old, `y` in new). Backward paths are
    /// grown over the reversed sequences, so their `x` counts lines from the end. Diagonals
    /// whose paths left the grid are dropped from later rounds (`forwardStart`/`forwardEnd`).
    private func splitPoint(oldLow: Int, n: Int, newLow: Int, m: Int) -> (x: Int, y: Int)? {
        let maxD = min((n + m + 1) / 2, Self.maxHalfCost)
        let offset = maxD + 1
        let length = 2 * maxD + 3
        var forward = [Int](repeating: -1, count: length)
        var backward = [Int](repeating: -1, count: length)
        forward[offset + 1] = 0
        backward[offset + 1] = 0
        let delta = n - m
        // With an odd delta the paths can first overlap while growing forward, else backward.
        let overlapWhileForward = delta & 1 != 0
        var forwardStart = 0
        var forwardEnd = 0
        var backwardStart = 0
        var backwardEnd = 0

        for d in 0..<maxD {
            var k = -d + forwardStart
            while k <= d - forwardEnd {
                let index = offset + k
                var x =
                    (k == -d || (k != d && forward[index - 1] < forward[index + 1]))
                    ? forward[index + 1] : forward[index - 1] + 1
                var y = x - k
                while x < n && y < m && old[oldLow + x] == new[newLow + y] {
                    x += 1
                    y += 1
                }
                forward[index] = x
                if x > n {
                    forwardEnd += 2
                } else if y > m {
                    forwardStart += 2
                } else if overlapWhileForward {
                    let mirror = offset + delta - k
                    if mirror >= 0 && mirror < length && backward[mirror] != -1 && x >= n - backward[mirror] {
                        return (x, y)
                    }
                }
                k += 2
            }
            k = -d + backwardStart
            while k <= d - backwardEnd {
                let index = offset + k
                var x =
                    (k == -d || (k != d && backward[index - 1] < backward[index + 1]))
                    ? backward[index + 1] : backward[index - 1] + 1
                var y = x - k
                while x < n && y < m && old[oldLow + n - x - 1] == new[newLow + m - y - 1] {
                    x += 1
                    y += 1
                }
                backward[index] = x
                if x > n {
                    backwardEnd += 2
                } else if y > m {
                    backwardStart += 2
                } else if !overlapWhileForward {
                    let mirror = offset + delta - k
                    if mirror >= 0 && mirror < length && forward[mirror] != -1 {
                        let forwardX = forward[mirror]
                        let forwardY = forwardX - (mirror - offset)
                        if forwardX >= n - x { return (forwardX, forwardY) }
                    }
                }
                k += 2
            }
        }
        return nil
    }
}
