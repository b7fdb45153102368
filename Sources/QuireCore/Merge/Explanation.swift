/// The search that proves a clean body merge: every way to explain a stretch's two sides as
/// changes to its base, and the text each explanation gives (SPEC, "Merge rules").
///
/// An alignment of a side is a longest common subsequence of the stretch's base and that side;
/// its hunks are the base lines removed and the side lines written between matched lines. An
/// explanation is a local and a remote alignment whose hunks, across the sides, are alike (the
/// same base lines rewritten, one side's lines, at least one, among the other's in order: a
/// change both made,
/// kept once as the fuller one) or apart (no base line in both, an insertion not
/// strictly inside the other side's removed lines, two insertions not at one place); its text
/// is the base with every hunk applied once, an insertion before the other side's rewrite at
/// one place. It is no explanation when it leaves lines after the mark of a missing final
/// newline, or counts one change twice: a hunk of each side that only writes the same lines,
/// or only removes as many lines, where moving one along the base a line at a time keeps its
/// side's text until it is the other (deleting the first or the second of `x x`: a diff cannot
/// tell the two places apart, so that is one change, made alike). Nor is a text proven when
/// its only explanations have each side change its own copy of a line in one run of equal
/// lines (each removing a different blank line of two, say, where both kept one): that reading
/// may be right, but it may as well be one change both made, so the text rests on a guess;
/// so does one where a change is kept once as held in the other side's (such explanations
/// still count when explanations disagree, so they can only turn a clean merge into a conflict).
/// In a stretch where the two
/// sides hold the same lines, the change is the same one on both: it merges to those lines.
///
/// A stretch merges cleanly when all its explanations give one text. Where they give two
/// (which copy of a repeated line a side changed would decide the text), or there is none, or
/// the search would pass its bounds, the stretch conflicts. `MergeExplanationOracle` in the
/// tests checks this search against a brute-force one.
enum Explanation {
    /// Above this many base-by-side lines in a stretch both sides changed, it conflicts unread.
    static var maxCells: Int { 250_000 }
    /// Above this many longest alignments of one side, the stretch conflicts unread.
    static var maxAlignments: Int { 128 }
    /// Above this many pairs of alignments to try, the stretch conflicts unread.
    static var maxPairs: Int { 4_096 }

    /// How a stretch merges: one proven text, or pieces of which some conflict.
    enum Outcome: Equatable {
        case merged([Int])
        case pieces([Piece])
    }

    enum Piece: Equatable {
        case clean([Int])
        /// Base lines (numbered within the stretch), and each side's lines for them.
        case conflict(base: Range<Int>, local: [Int], remote: [Int])
    }

    /// Merges one stretch given as line ids; `mark` is the id of the missing-final-newline
    /// mark, when any text has it.
    static func merge(base: [Int], local: [Int], remote: [Int], mark: Int?) -> Outcome {
        if local == base || local == remote { return .merged(remote) }
        if remote == base { return .merged(local) }
        let whole = wholeConflict(base: base, local: local, remote: remote)
        guard base.count * max(local.count, remote.count) <= maxCells,
            let localAlignments = alignments(of: local, against: base),
            let remoteAlignments = alignments(of: remote, against: base),
            localAlignments.count * remoteAlignments.count <= maxPairs
        else { return .pieces(whole) }
        let stretch = Stretch(base: base, local: local, remote: remote, mark: mark)
        var found: [Int]?
        var foundWithoutOwnCopies = false
        for localHunks in localAlignments {
            for remoteHunks in remoteAlignments {
                guard let explanation = stretch.explained(localHunks, remoteHunks) else { continue }
                if let found, found != explanation.text { return .pieces(whole) }
                found = explanation.text
                foundWithoutOwnCopies = foundWithoutOwnCopies || !explanation.restsOnAGuess
            }
        }
        if let found, foundWithoutOwnCopies { return .merged(found) }
        if localAlignments.count == 1, remoteAlignments.count == 1,
            let pieces = stretch.collidingGroups(localAlignments[0], remoteAlignments[0])
        {
            return .pieces(pieces)
        }
        return .pieces(whole)
    }

    /// The stretch as one conflict, less the lines all three texts begin and end with.
    static func wholeConflict(base: [Int], local: [Int], remote: [Int]) -> [Piece] {
        let shortest = min(base.count, local.count, remote.count)
        var head = 0
        while head < shortest, base[head] == local[head], base[head] == remote[head] { head += 1 }
        var tail = 0
        while tail < shortest - head, base[base.count - 1 - tail] == local[local.count - 1 - tail],
            base[base.count - 1 - tail] == remote[remote.count - 1 - tail]
        {
            tail += 1
        }
        return [
            .clean(Array(base[..<head])),
            .conflict(
                base: head..<(base.count - tail), local: Array(local[head..<(local.count - tail)]),
                remote: Array(remote[head..<(remote.count - tail)])),
            .clean(Array(base[(base.count - tail)...])),
        ]
    }

    /// Every longest alignment of `side` against `base`, as hunks; nil when there are more
    /// than `maxAlignments`.
    static func alignments(of side: [Int], against base: [Int]) -> [[LineDiff.Hunk]]? {
        let width = side.count + 1
        // longest[i * width + j]: the length of a longest common subsequence of base[i...] and
        // side[j...].
        var longest = [Int](repeating: 0, count: (base.count + 1) * width)
        for i in base.indices.reversed() {
            for j in side.indices.reversed() {
                longest[i * width + j] =
                    base[i] == side[j]
                    ? longest[(i + 1) * width + j + 1] + 1
                    : max(longest[(i + 1) * width + j], longest[i * width + j + 1])
            }
        }
        var found: [[LineDiff.Hunk]] = []
        var pairs: [(base: Int, side: Int)] = []
        // Each longest alignment once: its first pair, then the longest alignments after it.
        func extend(from i: Int, _ j: Int) -> Bool {
            let needed = longest[i * width + j]
            if needed == 0 {
                found.append(hunks(pairs, baseCount: base.count, sideCount: side.count))
                return found.count <= maxAlignments
            }
            var a = i
            while a < base.count && longest[a * width + j] == needed {
                var b = j
                while b < side.count && longest[a * width + b] == needed {
                    if base[a] == side[b] && longest[(a + 1) * width + b + 1] + 1 == needed {
                        pairs.append((a, b))
                        defer { pairs.removeLast() }
                        if !extend(from: a + 1, b + 1) { return false }
                    }
                    b += 1
                }
                a += 1
            }
            return true
        }
        return extend(from: 0, 0) ? found : nil
    }

    /// The hunks between matched pairs (increasing in both).
    static func hunks(_ pairs: [(base: Int, side: Int)], baseCount: Int, sideCount: Int) -> [LineDiff.Hunk] {
        var result: [LineDiff.Hunk] = []
        var (old, new) = (0, 0)
        for pair in pairs + [(baseCount, sideCount)] {
            if pair.base > old || pair.side > new {
                result.append(LineDiff.Hunk(old: old..<pair.base, new: new..<pair.side))
            }
            (old, new) = (pair.base + 1, pair.side + 1)
        }
        return result
    }

    /// Which side made a change; `both` when the two made it alike (nil: a base line).
    enum Owner: Equatable {
        case local, remote, both
    }

    /// One hunk of an explanation, with the lines it writes.
    struct Change {
        var old: Range<Int>
        var lines: ArraySlice<Int>
        var owner: Owner
        /// One side's change held in the other's, not the same: kept once as a guess.
        var isHeld = false

        /// Whether a local and a remote change are one change that a diff may place at either
        /// of two places: `slide` is how far to move the earlier one (a pure insertion or a pure
        /// deletion) along the base until it is the later one.
        func isSlid(onto other: Change, in base: [Int]) -> Bool {
            if other.old.lowerBound < old.lowerBound { return other.isSlid(onto: self, in: base) }
            let slide = other.old.lowerBound - old.lowerBound
            if old.isEmpty && other.old.isEmpty && lines.count == other.lines.count && !lines.isEmpty {
                // Writing `lines` at a gap is writing them rotated by one a line further down,
                // when the first of them is the base line passed over.
                let passed = base[old.lowerBound..<other.old.lowerBound]
                let moved = Array(lines) + passed
                return passed.elementsEqual(moved.prefix(slide)) && moved.dropFirst(slide).elementsEqual(other.lines)
            }
            if lines.isEmpty && other.lines.isEmpty && old.count == other.old.count {
                return (old.lowerBound..<other.old.lowerBound).allSatisfy { base[$0] == base[$0 + old.count] }
            }
            return false
        }

        /// Whether a local and a remote change leave each other's base lines alone.
        func isApart(from other: Change) -> Bool {
            switch (old.isEmpty, other.old.isEmpty) {
            case (true, true): return old.lowerBound != other.old.lowerBound
            case (true, false): return old.lowerBound <= other.old.lowerBound || old.lowerBound >= other.old.upperBound
            case (false, true): return other.isApart(from: self)
            case (false, false): return old.upperBound <= other.old.lowerBound || other.old.upperBound <= old.lowerBound
            }
        }
    }

    struct Stretch {
        var base: [Int]
        var local: [Int]
        var remote: [Int]
        var mark: Int?

        /// The two sides' hunks as changes. A change both made alike is kept once; so is one
        /// side's change that the other's holds (the same base lines rewritten, its lines among
        /// the other's, in order: one side went further at that place).
        func changes(_ localHunks: [LineDiff.Hunk], _ remoteHunks: [LineDiff.Hunk]) -> [Change] {
            var changes: [Change] = []
            var shared = Set<Int>()
            for hunk in localHunks {
                let lines = local[hunk.new]
                guard let twin = remoteHunks.firstIndex(where: { $0.old == hunk.old }) else {
                    changes.append(Change(old: hunk.old, lines: lines, owner: .local))
                    continue
                }
                let other = remote[remoteHunks[twin].new]
                if lines.elementsEqual(other) || Stretch.isInOrder(other, among: lines) {
                    changes.append(
                        Change(old: hunk.old, lines: lines, owner: .both, isHeld: !lines.elementsEqual(other)))
                    shared.insert(twin)
                } else if Stretch.isInOrder(lines, among: other) {
                    changes.append(Change(old: hunk.old, lines: other, owner: .both, isHeld: true))
                    shared.insert(twin)
                } else {
                    changes.append(Change(old: hunk.old, lines: lines, owner: .local))
                }
            }
            for (index, hunk) in remoteHunks.enumerated() where !shared.contains(index) {
                changes.append(Change(old: hunk.old, lines: remote[hunk.new], owner: .remote))
            }
            return changes
        }

        /// Whether `lines` (some) appear among `others`, in order (not necessarily side by
        /// side). Removing lines is never held in rewriting them: that is a conflict.
        static func isInOrder(_ lines: ArraySlice<Int>, among others: ArraySlice<Int>) -> Bool {
            if lines.isEmpty { return false }
            var rest = others[...]
            for line in lines {
                guard let at = rest.firstIndex(of: line) else { return false }
                rest = rest[(at + 1)...]
            }
            return true
        }

        /// The text a local and a remote alignment explain, and whether the explanation rests
        /// on a guess: each side changing its own copy of a line in one run of equal lines
        /// (removing it from a run of the base, or writing it into a run of the text), or one
        /// side's change kept once as held in the other's; nil when they explain none.
        func explained(_ localHunks: [LineDiff.Hunk], _ remoteHunks: [LineDiff.Hunk]) -> (
            text: [Int], restsOnAGuess: Bool
        )? {
            var changes = changes(localHunks, remoteHunks)
            for a in changes where a.owner == .local {
                for b in changes where b.owner == .remote {
                    if !a.isApart(from: b) || a.isSlid(onto: b, in: base) { return nil }
                }
            }
            changes.sort { ($0.old.lowerBound, $0.old.isEmpty ? 0 : 1) < ($1.old.lowerBound, $1.old.isEmpty ? 0 : 1) }
            var text: [Int] = []
            var written: [Owner?] = []
            var removed = [Owner?](repeating: nil, count: base.count)
            var position = 0
            for change in changes {
                text += base[position..<change.old.lowerBound] + change.lines
                written += repeatElement(nil, count: change.old.lowerBound - position)
                written += repeatElement(Owner?.some(change.owner), count: change.lines.count)
                for index in change.old { removed[index] = change.owner }
                position = change.old.upperBound
            }
            text += base[position...]
            written += repeatElement(nil, count: base.count - position)
            if let mark, let at = text.firstIndex(of: mark), at != text.count - 1 { return nil }
            let guess =
                changes.contains { $0.isHeld } || Stretch.aRunHoldsBothSides(text, written)
                || Stretch.aRunHoldsBothSides(base, removed)
            return (text, guess)
        }

        /// Whether a run of equal lines holds one of local's own and one of remote's own.
        static func aRunHoldsBothSides(_ lines: [Int], _ owners: [Owner?]) -> Bool {
            var start = 0
            while start < lines.count {
                var (end, local, remote) = (start, false, false)
                while end < lines.count && lines[end] == lines[start] {
                    local = local || owners[end] == .local
                    remote = remote || owners[end] == .remote
                    end += 1
                }
                if local && remote { return true }
                start = end
            }
            return false
        }

        /// With one alignment per side and no proven text, the pieces: hunks that collide (no
        /// explanation holds the two of them, or only one resting on a guess) grouped into
        /// conflicts, every other hunk applied. Nil when no two hunks collide on their own.
        func collidingGroups(_ localHunks: [LineDiff.Hunk], _ remoteHunks: [LineDiff.Hunk]) -> [Piece]? {
            var group = Array(0..<(localHunks.count + remoteHunks.count))
            func root(_ index: Int) -> Int {
                var index = index
                while group[index] != index { index = group[index] }
                return index
            }
            for (a, one) in localHunks.enumerated() {
                for (b, other) in remoteHunks.enumerated() {
                    // Hunks over the same base lines go together (alike, they merge to one).
                    let onTheirOwn = explained([one], [other])
                    if one.old == other.old || onTheirOwn == nil || onTheirOwn!.restsOnAGuess {
                        group[root(a)] = root(localHunks.count + b)
                    }
                }
            }
            var members: [Int: (local: [LineDiff.Hunk], remote: [LineDiff.Hunk])] = [:]
            for (index, hunk) in localHunks.enumerated() { members[root(index), default: ([], [])].local.append(hunk) }
            for (index, hunk) in remoteHunks.enumerated() {
                members[root(localHunks.count + index), default: ([], [])].remote.append(hunk)
            }
            let groups = members.values.map { hunks in
                let all = hunks.local + hunks.remote
                return (range: all.map(\.old.lowerBound).min()!..<all.map(\.old.upperBound).max()!, hunks: hunks)
            }
            .sorted {
                ($0.range.lowerBound, $0.range.isEmpty ? 0 : 1) < ($1.range.lowerBound, $1.range.isEmpty ? 0 : 1)
            }
            var pieces: [Piece] = []
            var position = 0
            var collided = false
            for (range, hunks) in groups {
                pieces.append(.clean(Array(base[position..<range.lowerBound])))
                let localLines = Stretch.apply(hunks.local, to: base, in: range, from: local)
                let remoteLines = Stretch.apply(hunks.remote, to: base, in: range, from: remote)
                if hunks.remote.isEmpty || localLines == remoteLines {
                    pieces.append(.clean(localLines))
                } else if hunks.local.isEmpty {
                    pieces.append(.clean(remoteLines))
                } else {
                    pieces.append(.conflict(base: range, local: localLines, remote: remoteLines))
                    collided = true
                }
                position = range.upperBound
            }
            pieces.append(.clean(Array(base[position...])))
            return collided ? pieces : nil
        }

        /// The base lines of `range` with one side's hunks (all inside it) applied.
        static func apply(_ hunks: [LineDiff.Hunk], to base: [Int], in range: Range<Int>, from side: [Int]) -> [Int] {
            var result: [Int] = []
            var position = range.lowerBound
            for hunk in hunks.sorted(by: { $0.old.lowerBound < $1.old.lowerBound }) {
                result += base[position..<hunk.old.lowerBound] + side[hunk.new]
                position = hunk.old.upperBound
            }
            return result + base[position..<range.upperBound]
        }
    }
}
