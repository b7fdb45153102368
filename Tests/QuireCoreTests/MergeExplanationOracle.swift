import Foundation

/// Judges a body merge by brute force, sharing no code with `Diff3`, `LineDiff` or the merge's
/// own search: which texts can be explained as the base plus each side's changes, each once.
///
/// The definitions (SPEC, "Merge rules": a clean body merge is one that can be explained):
///
/// - **Lines.** A text is its lines, each with its `\n`; a last line without one is that line
///   with `\n` followed by a mark token, "no newline at the end". Lines are compared as bytes.
/// - **Anchors.** A line found exactly once in each of base, local and remote, in the same
///   order relative to every other such line in all three texts. An anchor is the same line in
///   all three: explanations keep it on both sides. Between anchors lie *stretches*.
/// - **Alignment** of a side against the base: a common subsequence (matched line pairs) that
///   keeps every anchor and is as long as any that does. Its *hunks* are the base lines removed
///   and the side lines written between two consecutive matched pairs (or a text's ends).
/// - **Explanation**: a local and a remote alignment whose hunks, local against remote, are
///   either alike (same base lines, one side's new lines, at least one, among the other's in
///   order: a change both made, where one may have gone further; kept once, as the fuller one;
///   removing lines is never held in rewriting them) or
///   apart: no base line in both, an insertion not strictly inside the other side's removed
///   lines, two insertions not at one place. Its text is the base walked in order with every
///   hunk applied once; at one place an insertion comes before the other side's rewrite. An
///   explanation is not one when
///   - its text has the mark anywhere but at the end (lines would follow a line that ends the
///     text without a newline), or
///   - it counts one change twice: a hunk of each side, both writing the same lines and
///     removing none, or both removing as many lines and writing none, where moving one along
///     the base a line at a time keeps its side's text until it is the other (as deleting the
///     first or the second of `x x`): a diff cannot tell the two places apart, so that is one
///     change, made alike, or
///   - in a stretch where local and remote are the same text, the two alignments differ there
///     (both sides made the same change: it counts once).
/// - **Own copies.** An explanation where a run of equal lines holds a line local removed (or
///   wrote) and a line remote removed (or wrote) has each side change its own copy in one run:
///   a reading that may be right (fixture cases of issue 27) or may be one change both made.
/// - A merge is **proven** when every explanation gives the same text, there is one, and at
///   least one of them rests neither on own copies nor on a change held in the other side's
///   (where all do, the text is a guess); a
///   clean merge must be proven and give that text. Where explanations disagree (which copy
///   of a repeated line a side changed decides the text) or none exists, the merge conflicts.
///
/// Searching every alignment costs time exponential in the length of the texts: the oracle is
/// for short texts only (a dozen lines or so).
struct MergeExplanationOracle {
    typealias Line = [UInt8]

    /// What the search found.
    enum Verdict: Equatable {
        /// Every explanation gives this text.
        case proven(String)
        /// Explanations give different texts (at least these two).
        case ambiguous(String, String)
        /// No explanation exists.
        case unexplained
        /// Every explanation gives this text, but each has the two sides change their own
        /// copies of a line in one run: it may as well be one change both made.
        case onlyByOwnCopies(String)
    }

    /// The mark for a text that ends without a newline; no line is empty.
    static let mark: Line = []

    let base: [Line]
    let local: [Line]
    let remote: [Line]

    init(base: String, local: String, remote: String) {
        self.base = Self.lines(of: base)
        self.local = Self.lines(of: local)
        self.remote = Self.lines(of: remote)
    }

    static func lines(of text: String) -> [Line] {
        var lines: [Line] = []
        var current: Line = []
        for byte in text.utf8 {
            current.append(byte)
            if byte == UInt8(ascii: "\n") {
                lines.append(current)
                current = []
            }
        }
        if !current.isEmpty { lines += [current + [UInt8(ascii: "\n")], mark] }
        return lines
    }

    /// The text of lines; the mark at the end takes the newline off the line before it, unless
    /// that line is blank (it would vanish).
    static func text(of lines: [Line]) -> String {
        var bytes = lines.filter { $0 != mark }.flatMap { $0 }
        if lines.last == mark, lines.count >= 2, lines[lines.count - 2] != [UInt8(ascii: "\n")] {
            bytes.removeLast()
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    var verdict: Verdict {
        var texts: [[Line]] = []
        var withoutOwnCopies = false
        let anchors = anchorPairs()
        let localAlignments = Self.alignments(base, local, keeping: anchors.map { ($0.base, $0.local) })
        let remoteAlignments = Self.alignments(base, remote, keeping: anchors.map { ($0.base, $0.remote) })
        let sameStretches = stretchesWhereTheSidesAgree(anchors)
        for l in localAlignments {
            for r in remoteAlignments {
                let disagree = sameStretches.contains { stretch in
                    let localPairs = l.filter { stretch.base.contains($0.0) }.map { ($0.0, $0.1 - stretch.local) }
                    let remotePairs = r.filter { stretch.base.contains($0.0) }.map { ($0.0, $0.1 - stretch.remote) }
                    return !localPairs.elementsEqual(remotePairs, by: ==)
                }
                if disagree { continue }
                guard let explanation = explain(l, r) else { continue }
                if !texts.contains(explanation.text) { texts.append(explanation.text) }
                withoutOwnCopies = withoutOwnCopies || !explanation.ownCopies
            }
        }
        switch texts.count {
        case 0: return .unexplained
        case 1 where !withoutOwnCopies: return .onlyByOwnCopies(Self.text(of: texts[0]))
        case 1: return .proven(Self.text(of: texts[0]))
        default: return .ambiguous(Self.text(of: texts[0]), Self.text(of: texts[1]))
        }
    }

    // MARK: - Anchors and stretches

    /// The anchors as (base, local, remote) positions, in order.
    func anchorPairs() -> [(base: Int, local: Int, remote: Int)] {
        func once(_ line: Line, in lines: [Line]) -> Int? {
            let positions = lines.indices.filter { lines[$0] == line }
            return positions.count == 1 ? positions[0] : nil
        }
        var unique: [(base: Int, local: Int, remote: Int)] = []
        for (position, line) in base.enumerated() {
            if once(line, in: base) != nil, let l = once(line, in: local), let r = once(line, in: remote) {
                unique.append((position, l, r))
            }
        }
        return unique.filter { a in
            unique.allSatisfy { b in
                (a.base < b.base) == (a.local < b.local) && (a.base < b.base) == (a.remote < b.remote)
                    || a.base == b.base
            }
        }
    }

    /// The stretches between anchors where local and remote hold the same lines: their base
    /// lines, and where they begin on each side.
    func stretchesWhereTheSidesAgree(_ anchors: [(base: Int, local: Int, remote: Int)]) -> [(
        base: Range<Int>, local: Int, remote: Int
    )] {
        let bounds = [(base: -1, local: -1, remote: -1)] + anchors + [(base.count, local.count, remote.count)]
        var result: [(base: Range<Int>, local: Int, remote: Int)] = []
        for (before, after) in zip(bounds, bounds.dropFirst()) {
            let l = local[(before.local + 1)..<after.local]
            let r = remote[(before.remote + 1)..<after.remote]
            if l.elementsEqual(r) {
                result.append(((before.base + 1)..<after.base, before.local + 1, before.remote + 1))
            }
        }
        return result
    }

    // MARK: - Alignments

    /// Every common subsequence of `base` and `side` holding the `kept` pairs, of the greatest
    /// length among those, as matched (base, side) pairs.
    static func alignments(_ base: [Line], _ side: [Line], keeping kept: [(Int, Int)]) -> [[(Int, Int)]] {
        var all: [[(Int, Int)]] = []
        var chain: [(Int, Int)] = []
        func grow(after i: Int, _ j: Int) {
            all.append(chain)
            for a in (i + 1)..<max(base.count, i + 1) {
                for b in (j + 1)..<max(side.count, j + 1) where base[a] == side[b] {
                    chain.append((a, b))
                    grow(after: a, b)
                    chain.removeLast()
                }
            }
        }
        grow(after: -1, -1)
        let keeping = all.filter { alignment in
            kept.allSatisfy { pair in alignment.contains { $0 == pair } }
        }
        let longest = keeping.map(\.count).max() ?? 0
        return keeping.filter { $0.count == longest }
    }

    /// One hunk: base lines `old` replaced by `new`.
    struct Hunk: Equatable {
        var old: Range<Int>
        var new: [Line]
    }

    static func hunks(of alignment: [(Int, Int)], _ base: [Line], _ side: [Line]) -> [Hunk] {
        var hunks: [Hunk] = []
        var (i, j) = (0, 0)
        for (a, b) in alignment + [(base.count, side.count)] {
            if a > i || b > j { hunks.append(Hunk(old: i..<a, new: Array(side[j..<b]))) }
            (i, j) = (a + 1, b + 1)
        }
        return hunks
    }

    // MARK: - Explanations

    enum Origin { case local, remote, both }

    /// The text the two alignments explain, and whether they have each side change its own
    /// copy of a line in one run; nil when they explain none.
    func explain(_ localAlignment: [(Int, Int)], _ remoteAlignment: [(Int, Int)]) -> (
        text: [Line], ownCopies: Bool
    )? {
        let localHunks = Self.hunks(of: localAlignment, base, local)
        let remoteHunks = Self.hunks(of: remoteAlignment, base, remote)
        var changes: [(hunk: Hunk, origin: Origin)] = []
        var sharedRemote: [Hunk] = []
        var held = false
        for hunk in localHunks {
            if let other = remoteHunks.first(where: { $0.old == hunk.old }),
                Self.isSubsequence(other.new, of: hunk.new) || Self.isSubsequence(hunk.new, of: other.new)
            {
                changes.append((other.new.count > hunk.new.count ? other : hunk, .both))
                sharedRemote.append(other)
                held = held || other != hunk
            } else {
                changes.append((hunk, .local))
            }
        }
        changes += remoteHunks.filter { !sharedRemote.contains($0) }.map { ($0, .remote) }
        for a in changes where a.origin == .local {
            for b in changes where b.origin == .remote {
                if Self.isOneChangeSlid(a.hunk, b.hunk, base) { return nil }
                let (x, y) = (a.hunk.old, b.hunk.old)
                let apart: Bool
                switch (x.isEmpty, y.isEmpty) {
                case (true, true): apart = x.lowerBound != y.lowerBound
                case (true, false): apart = x.lowerBound <= y.lowerBound || x.lowerBound >= y.upperBound
                case (false, true): apart = y.lowerBound <= x.lowerBound || y.lowerBound >= x.upperBound
                case (false, false): apart = x.upperBound <= y.lowerBound || y.upperBound <= x.lowerBound
                }
                if !apart { return nil }
            }
        }
        changes.sort { a, b in
            (a.hunk.old.lowerBound, a.hunk.old.isEmpty ? 0 : 1) < (b.hunk.old.lowerBound, b.hunk.old.isEmpty ? 0 : 1)
        }
        var text: [(line: Line, origin: Origin?)] = []
        var removedBy = [Origin?](repeating: nil, count: base.count)
        var position = 0
        for change in changes {
            text += base[position..<change.hunk.old.lowerBound].map { ($0, nil) }
            text += change.hunk.new.map { ($0, change.origin) }
            for index in change.hunk.old { removedBy[index] = change.origin }
            position = change.hunk.old.upperBound
        }
        text += base[position...].map { ($0, nil) }
        if let mark = text.firstIndex(where: { $0.line == Self.mark }), mark != text.count - 1 { return nil }
        let ownCopies =
            Self.runHoldsBothSides(text.map(\.line), text.map(\.origin)) || Self.runHoldsBothSides(base, removedBy)
        return (text.map(\.line), held || ownCopies)
    }

    static func isSubsequence(_ small: [Line], of large: [Line]) -> Bool {
        if small.isEmpty && !large.isEmpty { return false }
        var index = 0
        for line in large where index < small.count && line == small[index] { index += 1 }
        return index == small.count
    }

    /// Whether some run of equal lines holds a line of local's own and one of remote's own.
    static func runHoldsBothSides(_ lines: [Line], _ origins: [Origin?]) -> Bool {
        var start = 0
        while start < lines.count {
            var end = start
            while end < lines.count && lines[end] == lines[start] { end += 1 }
            let run = origins[start..<end]
            if run.contains(.local) && run.contains(.remote) { return true }
            start = end
        }
        return false
    }

    /// Whether two hunks are one change at two places a diff cannot tell apart: both write
    /// the same lines and remove none, or both remove as many lines and write none, and moving
    /// the first along the base, one line at a time, leaves its side's text the same until it
    /// is the second.
    static func isOneChangeSlid(_ a: Hunk, _ b: Hunk, _ base: [Line]) -> Bool {
        let (first, second) = a.old.lowerBound <= b.old.lowerBound ? (a, b) : (b, a)
        if first.old.isEmpty && second.old.isEmpty && !first.new.isEmpty {
            var lines = first.new
            for gap in first.old.lowerBound..<second.old.lowerBound {
                if lines[0] != base[gap] { return false }
                lines = Array(lines.dropFirst()) + [base[gap]]
            }
            return lines == second.new
        }
        if first.new.isEmpty && second.new.isEmpty && first.old.count == second.old.count {
            let count = first.old.count
            return (first.old.lowerBound..<second.old.lowerBound).allSatisfy { base[$0] == base[$0 + count] }
        }
        return false
    }
}
