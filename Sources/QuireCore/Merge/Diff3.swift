/// A line-based three-way merge of texts: what both sides did to a common base, combined.
///
/// Each side is diffed against the base. A change made by one side only is taken; changes of
/// both sides are combined as long as they touch different lines of the base. Only where the
/// two sides changed overlapping base lines differently (or inserted different lines at the
/// same place) does a conflict remain, kept with its base, local and remote lines so that a
/// person can choose per hunk.
public struct Diff3: Hashable, Sendable {
    /// One part of the merged text, in order.
    public enum Chunk: Hashable, Sendable {
        /// Lines both sides agree on after the merge (unchanged, or changed by one side).
        case clean([String])
        /// Lines the two sides changed differently.
        case conflict(Conflict)
    }

    /// A region both sides changed differently, with the three versions of its lines.
    public struct Conflict: Hashable, Sendable {
        /// Where the region lies in the base (line numbers from 0).
        public var baseRange: Range<Int>
        public var base: [String]
        public var local: [String]
        public var remote: [String]

        public init(baseRange: Range<Int>, base: [String], local: [String], remote: [String]) {
            self.baseRange = baseRange
            self.base = base
            self.local = local
            self.remote = remote
        }
    }

    /// How to settle a conflict region when writing out text.
    public enum Choice: Hashable, Sendable {
        case local
        case remote
        /// Both versions, lines they share once: where they differ, the local lines, then the
        /// remote lines.
        case both
        case base
        /// Lines a person wrote for the region.
        case lines([String])
    }

    public private(set) var chunks: [Chunk]

    public init(chunks: [Chunk]) {
        self.chunks = chunks
    }

    /// Merges `local` and `remote`, two versions of `base`.
    public init(base: String, local: String, remote: String) {
        var interner = LineInterner()
        let base = Diff3.tokens(of: base)
        let local = Diff3.tokens(of: local)
        let remote = Diff3.tokens(of: remote)
        self.init(base: Side(base, &interner), local: Side(local, &interner), remote: Side(remote, &interner))
    }

    /// True when some region needs a person's choice.
    public var hasConflicts: Bool { !conflicts.isEmpty }

    /// The conflict regions, in text order.
    public var conflicts: [Conflict] {
        chunks.compactMap { chunk in
            if case .conflict(let conflict) = chunk { return conflict }
            return nil
        }
    }

    /// The merged text, or nil while conflicts remain.
    public var mergedText: String? {
        hasConflicts ? nil : text(choosing: .local)
    }

    /// The text with every conflict settled the same way.
    public func text(choosing choice: Choice) -> String {
        text { _, _ in choice }
    }

    /// The text with each conflict settled by `choose(index, conflict)`; index counts conflicts
    /// from 0 in text order, so a diff screen can settle each hunk on its own.
    public func text(choosing choose: (Int, Conflict) -> Choice) -> String {
        var lines: [String] = []
        var index = 0
        for chunk in chunks {
            switch chunk {
            case .clean(let clean):
                lines += clean
            case .conflict(let conflict):
                switch choose(index, conflict) {
                case .local: lines += conflict.local
                case .remote: lines += conflict.remote
                case .both: lines += Diff3.union(conflict.local, conflict.remote)
                case .base: lines += conflict.base
                case .lines(let own): lines += own
                }
                index += 1
            }
        }
        return Diff3.join(lines)
    }

    /// The text with git-style markers around each conflict, for resolving in `$EDITOR`.
    public func textWithMarkers(localLabel: String = "local", remoteLabel: String = "remote") -> String {
        var lines: [String] = []
        for chunk in chunks {
            switch chunk {
            case .clean(let clean):
                lines += clean
            case .conflict(let conflict):
                lines.append("<<<<<<< \(localLabel)\n")
                lines += conflict.local
                lines.append("||||||| base\n")
                lines += conflict.base
                lines.append("=======\n")
                lines += conflict.remote
                lines.append(">>>>>>> \(remoteLabel)\n")
            }
        }
        return Diff3.join(lines)
    }

    /// Joins lines into text. Only a text's last line lacks a newline; when a merge puts such a
    /// line before other lines, a newline is added so that two lines never run into one. The
    /// `noNewlineAtEnd` mark removes the newline before it when it ends the text, and is
    /// dropped anywhere else (lines follow it, so the newline must stay).
    static func join(_ lines: [String]) -> String {
        var text = ""
        var previous: String?
        for (index, line) in lines.enumerated() {
            if line == noNewlineAtEnd {
                if index == lines.count - 1, let previous, canLoseItsNewline(previous) {
                    text = String(decoding: text.utf8.dropLast(), as: UTF8.self)
                }
                continue
            }
            previous = line
            // Bytes, not characters: Swift sees "\r\n" as one character that is not "\n".
            if let last = text.utf8.last, last != UInt8(ascii: "\n") { text += "\n" }
            text += line
        }
        return text
    }

    /// The line that stands for "the text ends without a newline"; `LineDiff.lines` never
    /// yields an empty line, so it cannot be confused with text.
    ///
    /// A text's last line without its newline would otherwise be a different line from the
    /// same line with one: removing the final newline on one side would rewrite that line and
    /// collide with the other side's edits above it, and appending lines on one side would
    /// drop the other side's removal. As a line of its own, the missing newline is one more
    /// change that merges, or conflicts, like any other.
    static let noNewlineAtEnd = ""

    /// A text's lines, each ending in a newline, with `noNewlineAtEnd` after the last line
    /// when the text lacks its final newline.
    static func tokens(of text: String) -> [String] {
        tokens(ofLines: LineDiff.lines(of: text))
    }

    /// Lines as `tokens(of:)` gives them, for lines whose last one may lack its newline.
    static func tokens(ofLines lines: [String]) -> [String] {
        guard let last = lines.last, last != noNewlineAtEnd, last.utf8.last != UInt8(ascii: "\n") else {
            return lines
        }
        return lines.dropLast() + [last + "\n", noNewlineAtEnd]
    }

    /// Lines as people see them: a last line that lacks its newline is written without it.
    /// The mark stays on its own only where the line it belongs to is in another chunk.
    static func folded(_ tokens: some Collection<String>) -> [String] {
        var lines = Array(tokens)
        if lines.count >= 2, lines[lines.count - 1] == noNewlineAtEnd, canLoseItsNewline(lines[lines.count - 2]) {
            lines.removeLast()
            lines[lines.count - 1] = String(decoding: lines[lines.count - 1].utf8.dropLast(), as: UTF8.self)
        }
        return lines
    }

    /// Whether a line can end a text without its newline: it has one, and more than that (a
    /// blank line without its newline would be no line at all). Only a merge puts the mark
    /// after a blank line: the blank line stays, the mark is dropped.
    static func canLoseItsNewline(_ line: String) -> Bool {
        line.utf8.last == UInt8(ascii: "\n") && line != "\n"
    }

    /// Two versions of one region as one: the lines they share once, in order, and where
    /// they differ the local lines, then the remote lines. Unchanged lines that both
    /// versions kept are never repeated.
    static func union(_ local: [String], _ remote: [String]) -> [String] {
        let local = tokens(ofLines: local)
        let remote = tokens(ofLines: remote)
        var interner = LineInterner()
        var result: [String] = []
        var position = 0
        for hunk in LineDiff.hunks(from: interner.ids(local), to: interner.ids(remote)) {
            result += local[position..<hunk.old.upperBound]
            result += remote[hunk.new]
            position = hunk.old.upperBound
        }
        result += local[position...]
        return folded(result)
    }
}

// MARK: - Combining the two diffs

extension Diff3 {
    /// One text of a merge: its lines (as `tokens(of:)` gives them) and their ids.
    struct Side {
        var lines: [String]
        var ids: [Int]

        init(_ lines: [String], _ interner: inout LineInterner) {
            self.lines = lines
            ids = interner.ids(lines)
        }
    }

    /// A hunk of one side's diff against the base, tagged with its side.
    private struct SideHunk {
        enum Which { case local, remote }
        var side: Which
        var hunk: LineDiff.Hunk
        /// The base lines the hunk could lie over: where a run of equal lines lets it slide
        /// (as `x` inserted into `x x` can go before, between or after them), the whole
        /// stretch it could take; else exactly its own lines.
        var reach: Range<Int>
        /// How far the hunk can move up (negative) and down without changing the side's text.
        var slide: ClosedRange<Int>
        /// The hunk's new lines end the text without a newline, so nothing may follow them.
        var endsWithoutNewline: Bool
        /// The lines the hunk removes and the lines it writes.
        var lines: Set<Int>
        /// For a change both sides made alike (kept once, as the local hunk): where the
        /// remote side has it.
        var remoteTwin: LineDiff.Hunk?

        /// Where the hunk's lines are in the text of `side` (for a shared change, either).
        func newStart(in side: Which) -> Int {
            side == .remote ? (remoteTwin ?? hunk).new.lowerBound : hunk.new.lowerBound
        }
        var start: Int { hunk.old.lowerBound }
        var end: Int { hunk.old.upperBound }
        var isInsertion: Bool { hunk.old.isEmpty }
        var canSlide: Bool { reach != hunk.old }

        /// The same hunk moved `offset` lines within its slide: the same text on its side.
        func moved(by offset: Int) -> SideHunk {
            var copy = self
            copy.hunk = LineDiff.Hunk(
                old: (start + offset)..<(end + offset),
                new: (hunk.new.lowerBound + offset)..<(hunk.new.upperBound + offset))
            return copy
        }

        /// Whether two hunks of different sides touch the same base lines in a way that leaves
        /// the result undecided: overlapping base ranges, two insertions at the same place, an
        /// insertion strictly inside the other side's replaced lines, an insertion right after
        /// lines the other side ended the text with, or hunks that meet and share a line.
        ///
        /// A hunk that could slide has no one place, so it collides with any hunk of the other
        /// side that touches the stretch it could take: which lines a side changed in a run of
        /// equal lines is a guess, and a merge that rests on a guess can lose or repeat lines.
        func collides(with other: SideHunk) -> Bool {
            guard side != other.side else { return false }
            if canSlide || other.canSlide {
                return reach.lowerBound <= other.reach.upperBound && other.reach.lowerBound <= reach.upperBound
            }
            return collidesWhereItIs(with: other)
        }

        /// `collides(with:)` for the hunks where they are, however they could slide.
        func collidesWhereItIs(with other: SideHunk) -> Bool {
            guard side != other.side, remoteTwin == nil, other.remoteTwin == nil else { return false }
            // Hunks that meet with no base line between them are told apart by their lines: when
            // the two share none, no other reading of the diffs puts one side's lines where the
            // other's are; when they share one, the same change may be in both (x written over
            // a line on one side, x inserted beside it on the other) and would be kept twice.
            let meets = start == other.end || other.start == end || start == other.start
            if meets && !lines.isDisjoint(with: other.lines) { return true }
            switch (isInsertion, other.isInsertion) {
            case (false, false): return start < other.end && other.start < end
            case (true, true): return start == other.start
            case (true, false):
                return other.start < start && (start < other.end || (start == other.end && other.endsWithoutNewline))
            case (false, true):
                return start < other.start && (other.start < end || (other.start == end && endsWithoutNewline))
            }
        }
    }

    /// Colliding hunks of both sides and the base lines they lie in.
    private struct Group {
        var hunks: [SideHunk]
        var region: Range<Int>
    }

    /// Merges with each side diffed against the base on its own, and checks that against the
    /// merges with one side's alignment carried to the other through a diff of the two sides
    /// (`Alignment`), so that both sides see every line they share the same way.
    ///
    /// Two independent diffs can explain one move differently (`x` kept and `m` moved on one
    /// side, `m` kept and `x` moved on the other): then the same change looks like two, and a
    /// clean merge could repeat or drop lines, or keeping a side in a conflict could.
    init(base: Side, local: Side, remote: Side) {
        let localHunks = LineDiff.hunks(from: base.ids, to: local.ids)
        let remoteHunks = LineDiff.hunks(from: base.ids, to: remote.ids)
        let direct = Diff3(base: base, local: local, remote: remote, localHunks: localHunks, remoteHunks: remoteHunks)
        // One side unchanged, or both alike: there is only one change to take.
        guard !localHunks.isEmpty, !remoteHunks.isEmpty, local.ids != remote.ids else {
            self = direct
            return
        }
        // One diff of the two sides, taken in an order that does not depend on which is local,
        // so that swapping the sides gives the same alignments.
        let localFirst = Array(local.lines.joined(separator: "\n").utf8)
            .lexicographicallyPrecedes(Array(remote.lines.joined(separator: "\n").utf8))
        let between =
            localFirst
            ? LineDiff.hunks(from: local.ids, to: remote.ids)
            : LineDiff.hunks(from: remote.ids, to: local.ids).map { LineDiff.Hunk(old: $0.new, new: $0.old) }
        var anchored: [(merge: Diff3, anchor: [String])] = []
        if let throughLocal = Alignment.carried(
            localHunks, through: between, toMatch: remoteHunks, base: base.ids.count)
        {
            let merge =
                throughLocal == remoteHunks
                ? direct
                : Diff3(base: base, local: local, remote: remote, localHunks: localHunks, remoteHunks: throughLocal)
            anchored.append((merge, local.lines))
        }
        let back = between.map { LineDiff.Hunk(old: $0.new, new: $0.old) }
        if let throughRemote = Alignment.carried(remoteHunks, through: back, toMatch: localHunks, base: base.ids.count)
        {
            let merge =
                throughRemote == localHunks
                ? direct
                : Diff3(base: base, local: local, remote: remote, localHunks: throughRemote, remoteHunks: remoteHunks)
            anchored.append((merge, remote.lines))
        }
        self = Diff3.choose(direct: direct, anchored: anchored)
    }

    /// The merge to keep. Alignments that agree across the sides are trusted over the two
    /// independent diffs: a clean text every clean one of them gives; where two clean ones
    /// disagree nothing is proven, so a conflict (the direct merge's, if it has one); else the
    /// one with the fewest conflicting lines (a tie goes to the one anchored on the side whose
    /// text sorts first, so swapping the sides gives the same merge).
    private static func choose(direct: Diff3, anchored: [(merge: Diff3, anchor: [String])]) -> Diff3 {
        guard !anchored.isEmpty else { return direct }
        let clean = anchored.filter { !$0.merge.hasConflicts }
        if let first = clean.first {
            let text = first.merge.text(choosing: .local)
            if clean.allSatisfy({ $0.merge.text(choosing: .local).utf8.elementsEqual(text.utf8) }) {
                return first.merge
            }
            if direct.hasConflicts { return direct }
        }
        func size(_ merge: Diff3) -> Int {
            merge.conflicts.reduce(0) { $0 + $1.base.count + $1.local.count + $1.remote.count }
        }
        func bytes(_ lines: [String]) -> [UInt8] { lines.flatMap { Array($0.utf8) } }
        return anchored.min { a, b in
            if size(a.merge) != size(b.merge) { return size(a.merge) < size(b.merge) }
            return bytes(a.anchor).lexicographicallyPrecedes(bytes(b.anchor))
        }!.merge
    }

    init(base: Side, local: Side, remote: Side, localHunks: [LineDiff.Hunk], remoteHunks: [LineDiff.Hunk]) {
        let all =
            (Diff3.sideHunks(.local, of: local, base: base, hunks: localHunks)
            + Diff3.sideHunks(.remote, of: remote, base: base, hunks: remoteHunks))
            .sorted { ($0.reach.lowerBound, $0.reach.upperBound) < ($1.reach.lowerBound, $1.reach.upperBound) }

        // Sorted by where they can start, a hunk joins the first group it collides with or
        // whose lines it overlaps, and every group after that one (they lie in between).
        var groups: [Group] = []
        for hunk in all {
            if let first = groups.firstIndex(where: { group in
                group.region.upperBound > hunk.reach.lowerBound || group.hunks.contains { $0.collides(with: hunk) }
            }) {
                let merged = groups[first...]
                let lower = min(merged.first!.region.lowerBound, hunk.reach.lowerBound)
                let upper = max(merged.map(\.region.upperBound).max()!, hunk.reach.upperBound)
                let group = Group(hunks: merged.flatMap(\.hunks) + [hunk], region: lower..<upper)
                groups.removeSubrange(first...)
                groups.append(group)
            } else {
                groups.append(Group(hunks: [hunk], region: hunk.reach))
            }
        }

        var chunks: [Chunk] = []
        var pendingClean: [String] = []
        func flushClean() {
            if !pendingClean.isEmpty { chunks.append(.clean(Diff3.folded(pendingClean))) }
            pendingClean = []
        }
        var position = 0
        for group in groups {
            let region = group.region
            pendingClean += base.lines[position..<region.lowerBound]
            let localHunks = group.hunks.filter { $0.side == .local }.map(\.hunk)
            let remoteHunks = group.hunks.filter { $0.side == .remote }.map(\.hunk)
            let localVersion = Diff3.apply(localHunks, to: base.lines, in: region, from: local.lines)
            let remoteVersion = Diff3.apply(remoteHunks, to: base.lines, in: region, from: remote.lines)
            if remoteHunks.isEmpty {
                pendingClean += localVersion
            } else if localHunks.isEmpty
                || Diff3.apply(localHunks, to: base.ids, in: region, from: local.ids)
                    == Diff3.apply(remoteHunks, to: base.ids, in: region, from: remote.ids)
            {
                pendingClean += remoteVersion
            } else if let merged = Diff3.onlyReading(of: group, base: base, local: local, remote: remote) {
                pendingClean += merged
            } else {
                flushClean()
                chunks.append(
                    .conflict(
                        Conflict(
                            baseRange: region, base: Diff3.folded(base.lines[region]),
                            local: Diff3.folded(localVersion), remote: Diff3.folded(remoteVersion))))
            }
            position = region.upperBound
        }
        pendingClean += base.lines[position...]
        flushClean()
        self.init(chunks: chunks)
    }

    /// Above this many ways to place a group's sliding hunks, the group conflicts unread.
    static var maxReadings: Int { 64 }

    /// The group's merged lines when every way to place its sliding hunks that keeps the two
    /// sides apart gives the same lines (and at least one does); nil when two readings give
    /// different text, or none keeps the sides apart.
    ///
    /// Deleting one of `b b b` next to the other side's edit of the last `b` reads as deleting
    /// the first or second `b` (the edit stays), or the third (a conflict): the only clean
    /// text is proven, not guessed. Where readings disagree, the group stays a conflict.
    private static func onlyReading(of group: Group, base: Side, local: Side, remote: Side) -> [String]? {
        let placements = group.hunks.map { hunk in hunk.slide.map { hunk.moved(by: $0) } }
        guard placements.reduce(1, { $0 * $1.count }) <= maxReadings else { return nil }
        func same(_ a: SideHunk, _ b: SideHunk) -> Bool {
            a.hunk.old == b.hunk.old && local.ids[a.hunk.new] == remote.ids[b.hunk.new]
        }
        // A local and a remote hunk that can be placed as the same change are the same
        // change: every reading must place them together, and it counts once.
        var shared: [(local: Int, remote: Int)] = []
        for i in placements.indices where group.hunks[i].side == .local {
            for j in placements.indices where group.hunks[j].side == .remote {
                if placements[i].contains(where: { a in placements[j].contains { same(a, $0) } }) {
                    shared.append((i, j))
                }
            }
        }
        // Hunks that could meet and share a line, but are not the same change, may hold part
        // of one change made on both sides (`x` inserted here, `x y` inserted there): any
        // reading that keeps them apart may keep that part twice.
        for i in placements.indices where group.hunks[i].side == .local {
            for j in placements.indices where group.hunks[j].side == .remote {
                let (a, b) = (group.hunks[i], group.hunks[j])
                let meet = a.reach.lowerBound <= b.reach.upperBound && b.reach.lowerBound <= a.reach.upperBound
                if meet && !a.lines.isDisjoint(with: b.lines) && !shared.contains(where: { $0 == (i, j) }) {
                    return nil
                }
            }
        }
        var found: [Int]?
        var foundLines: [String] = []
        var alternatives: [[Int]] = []
        var choice = [Int](repeating: 0, count: placements.count)
        while true {
            var placed: [SideHunk]? = placements.indices.map { placements[$0][choice[$0]] }
            if let all = placed {
                let apart = shared.contains { !same(all[$0.local], all[$0.remote]) }
                var kept = all
                for pair in shared { kept[pair.local].remoteTwin = all[pair.remote].hunk }
                let once = Set(shared.map(\.remote))
                placed = apart ? nil : kept.indices.filter { !once.contains($0) }.map { kept[$0] }
            }
            if let placed, let reading = read(placed, in: group.region, base: base, local: local, remote: remote) {
                if let found, found != reading.ids { return nil }
                found = reading.ids
                foundLines = reading.lines
            }
            // A deletion of the very lines the other side rewrote may be the same deletion,
            // with an insertion on the other side. That reading is not taken (the two sides
            // conflict there), but if it gives other text than a clean reading, no text is
            // proven.
            if let placed {
                let sharing = placed.filter { hunk in
                    !(hunk.hunk.new.isEmpty
                        && placed.contains {
                            $0.side != hunk.side && $0.hunk.old == hunk.hunk.old && !$0.hunk.new.isEmpty
                        })
                }
                if sharing.count != placed.count,
                    let other = read(sharing, in: group.region, base: base, local: local, remote: remote)
                {
                    if let found, found != other.ids { return nil }
                    alternatives.append(other.ids)
                }
            }
            // The next combination, like counting in mixed radix.
            var digit = 0
            while digit < choice.count {
                choice[digit] += 1
                if choice[digit] < placements[digit].count { break }
                choice[digit] = 0
                digit += 1
            }
            if digit == choice.count { break }
        }
        guard let found, alternatives.allSatisfy({ $0 == found }) else { return nil }
        return foundLines
    }

    /// The region with all hunks applied, when no two of them collide where they are and the
    /// hunks of each side stay apart; else nil.
    private static func read(
        _ hunks: [SideHunk], in region: Range<Int>, base: Side, local: Side,
        remote: Side
    ) -> (ids: [Int], lines: [String])? {
        // Insertions before rewrites at the same place; hunks of one side (a shared change
        // counts as either side) in that side's order.
        func side(of a: SideHunk, beside b: SideHunk) -> SideHunk.Which {
            a.remoteTwin == nil ? a.side : b.remoteTwin == nil ? b.side : .local
        }
        let ordered = hunks.sorted { a, b in
            if (a.start, a.isInsertion ? 0 : 1) != (b.start, b.isInsertion ? 0 : 1) {
                return (a.start, a.isInsertion ? 0 : 1) < (b.start, b.isInsertion ? 0 : 1)
            }
            let order = side(of: a, beside: b)
            return a.newStart(in: order) < b.newStart(in: order)
        }
        for (index, hunk) in ordered.enumerated() {
            for other in ordered[(index + 1)...] {
                if hunk.collidesWhereItIs(with: other) { return nil }
                if other.start < hunk.end { return nil }
            }
            if !region.contains(hunk.start) && hunk.start != region.upperBound || hunk.end > region.upperBound {
                return nil
            }
        }
        var ids: [Int] = []
        var lines: [String] = []
        var position = region.lowerBound
        for hunk in ordered {
            let side = hunk.side == .local ? local : remote
            ids += base.ids[position..<hunk.start] + side.ids[hunk.hunk.new]
            lines += base.lines[position..<hunk.start] + side.lines[hunk.hunk.new]
            position = hunk.end
        }
        ids += base.ids[position..<region.upperBound]
        lines += base.lines[position..<region.upperBound]
        return (ids, lines)
    }

    /// One side's hunks against the base, each with the stretch it could slide over.
    private static func sideHunks(_ which: SideHunk.Which, of side: Side, base: Side, hunks: [LineDiff.Hunk])
        -> [SideHunk]
    {
        return hunks.indices.map { index in
            let hunk = hunks[index]
            let previous = index > 0 ? hunks[index - 1] : nil
            let next = index + 1 < hunks.count ? hunks[index + 1] : nil
            var (up, down) = (0, 0)
            // Slide up while the line before the hunk equals its last line on each side that
            // has lines; stop at the neighbouring hunk.
            while hunk.old.lowerBound - up - 1 >= (previous?.old.upperBound ?? 0),
                hunk.new.lowerBound - up - 1 >= (previous?.new.upperBound ?? 0),
                hunk.old.isEmpty || base.ids[hunk.old.upperBound - up - 1] == base.ids[hunk.old.lowerBound - up - 1],
                hunk.new.isEmpty || side.ids[hunk.new.upperBound - up - 1] == side.ids[hunk.new.lowerBound - up - 1]
            {
                up += 1
            }
            while hunk.old.upperBound + down < (next?.old.lowerBound ?? base.ids.count),
                hunk.new.upperBound + down < (next?.new.lowerBound ?? side.ids.count),
                hunk.old.isEmpty || base.ids[hunk.old.lowerBound + down] == base.ids[hunk.old.upperBound + down],
                hunk.new.isEmpty || side.ids[hunk.new.lowerBound + down] == side.ids[hunk.new.upperBound + down]
            {
                down += 1
            }
            return SideHunk(
                side: which, hunk: hunk, reach: (hunk.old.lowerBound - up)..<(hunk.old.upperBound + down),
                slide: -up...down,
                endsWithoutNewline: side.lines[hunk.new].last == noNewlineAtEnd,
                lines: Set(base.ids[hunk.old]).union(side.ids[hunk.new]))
        }
    }

    /// The base lines of `range` with one side's hunks (all inside the range) applied.
    private static func apply<Line>(
        _ hunks: [LineDiff.Hunk], to base: [Line], in range: Range<Int>,
        from side: [Line]
    ) -> [Line] {
        var result: [Line] = []
        var position = range.lowerBound
        for hunk in hunks.sorted(by: { $0.old.lowerBound < $1.old.lowerBound }) {
            result += base[position..<hunk.old.lowerBound]
            result += side[hunk.new]
            position = hunk.old.upperBound
        }
        result += base[position..<range.upperBound]
        return result
    }
}
