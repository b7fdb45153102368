import Foundation
import TerminalUI

/// Rendered Markdown kept between frames: the preview and the item view redraw on every key,
/// and must not parse a note again for each. Entries are keyed by the text itself (compared
/// byte for byte, a memcmp even for a megabyte) and the width; the last few are kept.
public final class MarkdownCache: @unchecked Sendable {
    public static let shared = MarkdownCache()

    /// Enough for the preview and the item view of a few items at two widths.
    static let capacity = 8

    private let lock = NSLock()
    /// Most recently used last.
    private var entries: [(bytes: [UInt8], linkLooks: [String: LinkLook], rendered: RenderedMarkdown)] = []

    public init() {}

    /// The first rows of `text` rendered at `width`: at least `rows` of them when the text has
    /// that many (more when its last block rendered runs past).
    public func lines(_ text: String, width: Int, rows: Int) -> ArraySlice<Line> {
        rendered(text, width: width, rows: rows).lines
    }

    /// As `lines`, with whether they are all of the text, and the text's `[[links]]` drawn as
    /// `linkLooks` says.
    public func rendered(
        _ text: String, width: Int, rows: Int, linkLooks: [String: LinkLook] = [:]
    ) -> (lines: ArraySlice<Line>, complete: Bool) {
        lock.lock()
        defer { lock.unlock() }
        let rendered = entry(text, width: max(1, width), linkLooks: linkLooks)
        rendered.extend(toAtLeast: rows)
        return (rendered.lines[...], rendered.isComplete)
    }

    private func entry(_ text: String, width: Int, linkLooks: [String: LinkLook]) -> RenderedMarkdown {
        let count = text.utf8.count
        if let index = entries.lastIndex(where: {
            $0.rendered.width == width && $0.bytes.count == count && $0.linkLooks == linkLooks
                && Self.same($0.bytes, text)
        }) {
            let found = entries.remove(at: index)
            entries.append(found)
            return found.rendered
        }
        let bytes = Array(text.utf8)
        let rendered = RenderedMarkdown(bytes: bytes, width: width, linkLooks: linkLooks)
        entries.append((bytes, linkLooks, rendered))
        if entries.count > Self.capacity { entries.removeFirst() }
        return rendered
    }

    private static func same(_ bytes: [UInt8], _ text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            bytes.withUnsafeBufferPointer { stored in
                guard let a = utf8.baseAddress, let b = stored.baseAddress else { return utf8.count == stored.count }
                return memcmp(a, b, utf8.count) == 0
            }
        }
    }
}
