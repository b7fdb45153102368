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
        /// The local lines, then the remote lines.
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
        let baseLines = LineDiff.lines(of: base)
        let localLines = LineDiff.lines(of: local)
        let remoteLines = LineDiff.lines(of: remote)
        let baseIDs = interner.ids(baseLines)
        let localHunks = LineDiff.hunks(from: baseIDs, to: interner.ids(localLines))
        let remoteHunks = LineDiff.hunks(from: baseIDs, to: interner.ids(remoteLines))
        self.init(base: baseLines, local: localLines, localHunks: localHunks,
                  remote: remoteLines, remoteHunks: remoteHunks)
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
                case .both: lines += conflict.local + conflict.remote
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
    /// line before other lines, a newline is added so that two lines never run into one.
    static func join(_ lines: [String]) -> String {
        var text = ""
        for line in lines {
            // Bytes, not characters: Swift sees "\r\n" as one character that is not "\n".
            if let last = text.utf8.last, last != UInt8(ascii: "\n") { text += "\n" }
            text += line
        }
        return text
    }
}

// MARK: - Combining the two diffs

extension Diff3 {
    /// A hunk of one side's diff against the base, tagged with its side.
    private struct SideHunk {
        enum Side { case local, remote }
        var side: Side
        var hunk: LineDiff.Hunk
        var start: Int { hunk.old.lowerBound }
        var end: Int { hunk.old.upperBound }
        var isInsertion: Bool { hunk.old.isEmpty }

        /// Whether two hunks of different sides touch the same base lines in a way that leaves
        /// the order of the result undecided: overlapping base ranges, two insertions at the same
        /// place, or an insertion strictly inside the other side's replaced lines.
        func collides(with other: SideHunk) -> Bool {
            guard side != other.side else { return false }
            switch (isInsertion, other.isInsertion) {
            case (false, false): return start < other.end && other.start < end
            case (true, true): return start == other.start
            case (true, false): return other.start < start && start < other.end
            case (false, true): return start < other.start && other.start < end
            }
        }
    }

    init(base: [String], local: [String], localHunks: [LineDiff.Hunk],
         remote: [String], remoteHunks: [LineDiff.Hunk]) {
        let all = (localHunks.map { SideHunk(side: .local, hunk: $0) }
            + remoteHunks.map { SideHunk(side: .remote, hunk: $0) })
            .sorted { ($0.start, $0.end) < ($1.start, $1.end) }

        // Group colliding hunks. Sorted by start, a hunk can only collide with hunks of the
        // group being built: hunks of one side never overlap, so an earlier group has ended.
        var groups: [[SideHunk]] = []
        for hunk in all {
            if var last = groups.last, last.contains(where: { $0.collides(with: hunk) }) {
                last.append(hunk)
                groups[groups.count - 1] = last
            } else {
                groups.append([hunk])
            }
        }

        var chunks: [Chunk] = []
        var pendingClean: [String] = []
        func flushClean() {
            if !pendingClean.isEmpty { chunks.append(.clean(pendingClean)) }
            pendingClean = []
        }
        var position = 0
        for group in groups {
            let start = group.map(\.start).min()!
            let end = group.map(\.end).max()!
            pendingClean += base[position..<start]
            let localVersion = Diff3.apply(group.filter { $0.side == .local }.map(\.hunk),
                                           to: base, in: start..<end, from: local)
            let remoteVersion = Diff3.apply(group.filter { $0.side == .remote }.map(\.hunk),
                                            to: base, in: start..<end, from: remote)
            let sides = Set(group.map(\.side))
            if sides.count == 1 || localVersion == remoteVersion {
                pendingClean += sides == [.remote] ? remoteVersion : localVersion
            } else {
                flushClean()
                chunks.append(.conflict(Conflict(
                    baseRange: start..<end, base: Array(base[start..<end]),
                    local: localVersion, remote: remoteVersion)))
            }
            position = end
        }
        pendingClean += base[position...]
        flushClean()
        self.init(chunks: chunks)
    }

    /// The base lines of `range` with one side's hunks (all inside the range) applied.
    private static func apply(_ hunks: [LineDiff.Hunk], to base: [String], in range: Range<Int>,
                              from side: [String]) -> [String] {
        var result: [String] = []
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
