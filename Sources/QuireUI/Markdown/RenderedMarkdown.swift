import TerminalUI

/// One text's Markdown rendered at one width as far as it was asked for: pieces of the text
/// (see `MarkdownChunks`) are parsed and their blocks rendered only when rows beyond those
/// already made are wanted, so the first screen of a megabyte note costs a screen's worth.
public final class RenderedMarkdown {
    public let width: Int
    private let chunks: MarkdownChunks
    private let renderer: MarkdownRenderer
    /// The rows made so far.
    public private(set) var lines: [Line] = []
    /// Bytes of the text parsed so far.
    public private(set) var parsed = 0
    /// The piece being rendered and its top-level blocks not rendered yet.
    private var tree: MarkdownTree?
    private var pending: ArraySlice<MarkdownNode> = []
    /// The piece being rendered began at a forced cut: no blank row before its first block.
    private var continues = false
    /// The last piece parsed ended at a forced cut: the next one continues it.
    private var endedAtForcedCut = false

    /// `wholeLimit`: text up to this many bytes is parsed in one piece. `linkLooks`: how the text's
    /// `[[links]]` are drawn when not as written (see `LinkLook`).
    public init(
        bytes: [UInt8], width: Int, wholeLimit: Int = MarkdownChunks.wholeLimit,
        linkLooks: [String: LinkLook] = [:]
    ) {
        chunks = MarkdownChunks(bytes: bytes, wholeLimit: wholeLimit)
        self.width = max(1, width)
        renderer = MarkdownRenderer(linkLooks: linkLooks)
    }

    public convenience init(
        _ text: String, width: Int, wholeLimit: Int = MarkdownChunks.wholeLimit, linkLooks: [String: LinkLook] = [:]
    ) {
        self.init(bytes: Array(text.utf8), width: width, wholeLimit: wholeLimit, linkLooks: linkLooks)
    }

    /// Whether every row of the text is made.
    public var isComplete: Bool { pending.isEmpty && parsed >= chunks.bytes.count }

    /// Makes rows until there are at least `rows` of them or the text ends.
    public func extend(toAtLeast rows: Int) {
        while lines.count < rows && !isComplete {
            guard let block = pending.popFirst() else {
                parseNextPiece()
                continue
            }
            if !lines.isEmpty && !continues { lines.append(Line([])) }
            continues = false
            for line in renderer.block(block, width: width) {
                lines.append(line.fits(width) ? line : line.truncated(toWidth: width))
            }
            if pending.isEmpty { tree = nil }
        }
    }

    private func parseNextPiece() {
        let end = chunks.pieceEnd(from: parsed)
        let piece = chunks.bytes[parsed..<end.offset]
        parsed = end.offset
        guard let tree = MarkdownTree(piece) else {
            // The parser could not start: the piece as typed rather than nothing.
            lines += String(decoding: piece, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                .flatMap { Paragraph.wrap(Line(String($0)), width: width) }
            return
        }
        self.tree = tree
        pending = ArraySlice(tree.root.children)
        continues = endedAtForcedCut
        endedAtForcedCut = !end.clean
    }
}
