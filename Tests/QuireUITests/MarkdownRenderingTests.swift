import Foundation
import QuireCore
import QuireTestSupport
import QuireUI
import TerminalUI
import Testing

/// Notes' bodies rendered as Markdown: every element at three widths, the roles a theme colours,
/// the `m` toggle, and a long note rendered only as far as the screen reaches.
@Suite struct MarkdownRenderingTests {
    /// Every element the item view renders, with wide characters inside them and a table wider
    /// than a narrow screen.
    static let note = """
        # Trip plan 旅行 🧳

        Some *emphasis*, **strong 強い**, `inline code`, ~~struck out~~ and a [link 链接](https://example.com/guide/for/the/trip) \
        plus an autolink https://quire.example.org in one paragraph that wraps.\\
        After a hard break.

        ## Lists

        - first item with a long line that wraps under its own text, not under the bullet 🙂
        - second
          - nested 入れ子 item that also runs long enough to wrap at forty columns
            1. deep numbered
        - [ ] open task 買い物
        - [x] done task ✅

        9. ninth
        10. tenth, numbers aligned

        > A quote with **bold** and 引用 that wraps across rows when the screen is narrow.
        >
        > - a list inside the quote

        ```swift
        let greeting = "こんにちは"  // a code line longer than forty columns, cut and not wrapped
        \tindented()
        ```

        ---

        | Name | 数量 | Notes |
        |:-----|-----:|:-----:|
        | 🍎 apple | 3 | crisp and red, picked this morning from the old tree by the gate |
        | 梨 | 12 | a long note in a cell that will not fit a narrow screen |

        ### Third level ~~heading~~
        """

    static func rendered(_ text: String, width: Int) -> [Line] {
        let rendered = RenderedMarkdown(text, width: width)
        rendered.extend(toAtLeast: .max)
        return rendered.lines
    }

    @Test(arguments: [40, 80, 120])
    func everyElement(width: Int) {
        let lines = Self.rendered(Self.note, width: width)
        for line in lines { #expect(line.width <= width, "\(line.plainText)") }
        assertSnapshot(lines.map(\.plainText).joined(separator: "\n"), named: "markdown-\(width)")
    }

    @Test func linkTargetsAndCodeCarryTheirRoles() {
        let lines = Self.rendered(
            "A [site](https://example.com) and `x`.\n\n```\nlet code = 1\n```\n\n~~gone~~ **big**", width: 80)
        let spans = lines.flatMap(\.spans)
        #expect(spans.contains { $0.text == "site" && $0.style.role == .link })
        #expect(spans.contains { $0.text == " (https://example.com)" && $0.style.role == .linkTarget })
        #expect(spans.contains { $0.text == "x" && $0.style.role == .code })
        #expect(spans.contains { $0.text == "let code = 1" && $0.style.role == .codeBlock })
        #expect(spans.contains { $0.text == "gone" && $0.style.role == .strikethrough })
        #expect(spans.contains { $0.text == "big" && $0.style.bold })
    }

    /// cmark-gfm's extensions live in state the whole process shares: documents parsed on
    /// several threads at once each keep theirs (a `~~` came out as text when two parses met).
    @Test func documentsParsedAtOnceEachKeepTheirExtensions() {
        let plain = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<100 {
                let spans = Self.rendered("Some ~~gone~~ text", width: 80).flatMap(\.spans)
                if !spans.contains(where: { $0.text == "gone" && $0.style.role == .strikethrough }) { plain.add() }
            }
        }
        #expect(plain.value == 0, "parses that lost their strikethrough")
    }

    /// An autolink's text is its target: shown once.
    @Test func autolinkShowsItsAddressOnce() {
        let text = Self.rendered("See https://quire.example.org now", width: 80).map(\.plainText)
        #expect(text == ["See https://quire.example.org now"])
    }

    /// Code is cut at the width, never wrapped onto a second row.
    @Test func codeIsCutNotWrapped() {
        let lines = Self.rendered("```\n" + String(repeating: "x", count: 100) + "\n```", width: 40)
        #expect(lines.count == 1)
        #expect(lines[0].width == 40)
        #expect(lines[0].plainText.hasSuffix("…"))
    }

    static let markdownItem = Item(
        id: "0193a9d2-0001-7000-8000-000000000000", kind: .note, title: "Rendered",
        body: "# Heading\n\nSome **bold** text.", createdAt: Date(timeIntervalSince1970: 1_795_000_000), rev: 1,
        syncState: .synced)

    @Test func mTogglesRawTextInTheItemView() {
        var harness = Harness(size: Size(width: 80, height: 24), items: [Self.markdownItem])
        harness.press(.enter)
        #expect(harness.text.contains("Heading"))
        #expect(harness.text.contains("═══════"))
        #expect(!harness.text.contains("# Heading"))
        #expect(harness.text.contains("Some bold text."))
        harness.press(.character("m"))
        #expect(harness.state.showsRawText)
        #expect(harness.text.contains("# Heading"))
        #expect(harness.text.contains("Some **bold** text."))
        harness.press(.character("m"))
        #expect(!harness.text.contains("# Heading"))
    }

    @Test func mTogglesRawTextInThePreview() {
        var harness = Harness(size: Size(width: 120, height: 40), items: [Self.markdownItem])
        #expect(harness.text.contains("Some bold text."))
        harness.press(.character("m"))
        #expect(harness.text.contains("Some **bold** text."))
    }

    /// The item view of a rendered note at every screen size.
    @Test(arguments: Size.all)
    func itemView(size: Size) {
        let item = Item(
            id: "0193a9d2-0001-7000-8000-000000000000", kind: .note, title: "Trip plan", body: Self.note,
            createdAt: Date(timeIntervalSince1970: 1_795_000_000), rev: 1, syncState: .synced)
        var harness = Harness(size: size, items: [item])
        harness.press(.enter)
        assertSnapshot(harness.text, named: "detail-markdown-\(size)")
    }

    /// A long note in pieces renders as it does whole; the first screen of a megabyte note
    /// parses only its first piece.
    @Test func aLongNoteRendersInPiecesAsWhole() {
        let block = """
            ## Section

            Text with *style* and a [link](https://example.com).

            ```
            code

            still code, after a blank line
            ```

            - item
            - [ ] task

            | a | b |
            |---|---|
            | 1 | 2 |


            """
        let text = String(repeating: block, count: (1 << 20) / block.utf8.count)
        let pieces = RenderedMarkdown(text, width: 60)
        pieces.extend(toAtLeast: 40)
        #expect(pieces.lines.count >= 40)
        #expect(pieces.parsed < 64 * 1024, "the first screen parsed \(pieces.parsed) bytes")

        let short = String(text.prefix(100_000))
        let chunked = RenderedMarkdown(short, width: 60)
        chunked.extend(toAtLeast: .max)
        let whole = RenderedMarkdown(short, width: 60, wholeLimit: .max)
        whole.extend(toAtLeast: .max)
        #expect(chunked.lines.count > 1000)
        #expect(chunked.lines == whole.lines)
    }

    /// A paragraph of thousands of lines has no clean cut: it is cut anyway, so its first
    /// screen does not wrap a megabyte; the rows up to the cut are those of the whole.
    @Test func aHugeParagraphIsCutAnyway() {
        let line = "A line of a long note, typed over months, one of many in the body.\n"
        let text = String(repeating: line, count: (1 << 20) / line.utf8.count)
        let pieces = RenderedMarkdown(text, width: 100)
        pieces.extend(toAtLeast: 40)
        #expect(pieces.parsed < 40 * 1024, "the first screen parsed \(pieces.parsed) bytes")
        let short = String(repeating: line, count: 1500)
        let whole = RenderedMarkdown(short, width: 100, wholeLimit: .max)
        whole.extend(toAtLeast: 40)
        #expect(Array(pieces.lines.prefix(40)) == Array(whole.lines.prefix(40)))
    }

    /// The cache answers the same rows for the same text and width without parsing again.
    @Test func cacheKeepsRenderedRows() {
        let cache = MarkdownCache()
        let first = cache.lines("# A\n\ntext", width: 20, rows: 10)
        let again = cache.lines(String("# A\n\ntext"), width: 20, rows: 10)
        #expect(Array(first) == Array(again))
        #expect(first.map(\.plainText) == ["A", "═", "", "text"])
        #expect(cache.lines("# B", width: 20, rows: 10).map(\.plainText) == ["B", "═"])
    }
}

/// A count several threads add to.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
