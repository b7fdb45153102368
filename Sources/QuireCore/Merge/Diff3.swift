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

// MARK: - Merging stretch by stretch

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

    /// Merges stretch by stretch (`MergeStretch`): a stretch one side left alone takes the
    /// other's lines; one both changed takes the text every explanation of it gives
    /// (`Explanation`), or conflicts.
    init(base: Side, local: Side, remote: Side) {
        let idCount = [base.ids.max(), local.ids.max(), remote.ids.max()].compactMap { $0 }.max().map { $0 + 1 } ?? 0
        var lineOfID = [String?](repeating: nil, count: idCount)
        for side in [base, local, remote] {
            for (id, line) in zip(side.ids, side.lines) { lineOfID[id] = line }
        }
        let mark = lineOfID.firstIndex { $0 == Diff3.noNewlineAtEnd }
        func lines(_ ids: [Int]) -> [String] { ids.map { lineOfID[$0]! } }

        var chunks: [Chunk] = []
        var pendingClean: [String] = []
        func flushClean() {
            if !pendingClean.isEmpty { chunks.append(.clean(Diff3.folded(pendingClean))) }
            pendingClean = []
        }
        func appendPieces(_ pieces: [Explanation.Piece], of stretch: MergeStretch) {
            for piece in pieces {
                switch piece {
                case .clean(let ids):
                    pendingClean += lines(ids)
                case .conflict(let range, let localIDs, let remoteIDs):
                    flushClean()
                    let baseRange =
                        (stretch.base.lowerBound + range.lowerBound)..<(stretch.base.lowerBound + range.upperBound)
                    chunks.append(
                        .conflict(
                            Conflict(
                                baseRange: baseRange, base: Diff3.folded(base.lines[baseRange]),
                                local: Diff3.folded(lines(localIDs)), remote: Diff3.folded(lines(remoteIDs)))))
                }
            }
        }
        let stretches = MergeStretch.stretches(base: base.ids, local: local.ids, remote: remote.ids)
        for (index, stretch) in stretches.enumerated() {
            let baseIDs = base.ids[stretch.base]
            if local.ids[stretch.local].elementsEqual(baseIDs) && remote.ids[stretch.remote].elementsEqual(baseIDs) {
                // Most stretches of a long body: nothing changed.
                pendingClean += base.lines[stretch.base]
            } else {
                switch Explanation.merge(
                    base: Array(baseIDs), local: Array(local.ids[stretch.local]),
                    remote: Array(remote.ids[stretch.remote]), mark: mark)
                {
                case .merged(let ids): pendingClean += lines(ids)
                case .pieces(let pieces): appendPieces(pieces, of: stretch)
                }
            }
            // The anchor after the stretch.
            if index + 1 < stretches.count { pendingClean.append(base.lines[stretch.base.upperBound]) }
        }
        flushClean()
        self.init(chunks: chunks)
    }
}
