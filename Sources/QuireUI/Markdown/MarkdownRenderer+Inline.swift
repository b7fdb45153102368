import QuireCore
import TerminalUI

extension MarkdownRenderer {
    /// A block's inline content as logical lines: a line break starts a new one, a soft one (a
    /// newline typed inside a paragraph) too. Notes are typed line by line (a packing list, an
    /// address) and read as typed, as GitHub's comments and most note apps show them; a line
    /// longer than the screen still wraps.
    func inlines(of node: MarkdownNode, style: Style) -> [Line] {
        var lines = [Line([])]
        children(of: node, style: style, into: &lines)
        return lines
    }

    private func inline(_ node: MarkdownNode, style: Style, into lines: inout [Line]) {
        switch node.kind {
        case .text:
            text(node.literal, style: style, into: &lines)
        case .softBreak, .lineBreak:
            lines.append(Line([]))
        case .code:
            lines[lines.count - 1].append(Span(node.literal, style: style.withRole(.code)))
        case .htmlInline:
            lines[lines.count - 1].append(Span(node.literal, style: style.withRole(.muted)))
        case .emphasis:
            var inner = style
            inner.underline = true
            children(of: node, style: inner, into: &lines)
        case .strong:
            children(of: node, style: style.bolded(), into: &lines)
        case .strikethrough:
            children(of: node, style: style.withRole(.strikethrough), into: &lines)
        case .link:
            let start = (lines.count, lines[lines.count - 1].spans.count)
            children(of: node, style: style.withRole(.link), into: &lines)
            if showsTarget(node.url, text: shownText(from: start, in: lines)) {
                lines[lines.count - 1].append(Span(" (" + node.url + ")", .linkTarget))
            }
        case .image:
            lines[lines.count - 1].append(Span("[image: ", style: style.withRole(.muted)))
            children(of: node, style: style.withRole(.muted), into: &lines)
            lines[lines.count - 1].append(Span("]", style: style.withRole(.muted)))
            if !node.url.isEmpty { lines[lines.count - 1].append(Span(" (" + node.url + ")", .linkTarget)) }
        default:
            children(of: node, style: style, into: &lines)
        }
    }

    /// A node's inline children. The parser leaves `[` and `]` that open no link as text nodes
    /// of their own: a run of text nodes is read as one text, so `[[Title]]` is seen whole.
    private func children(of node: MarkdownNode, style: Style, into lines: inout [Line]) {
        var run = ""
        for child in node.children {
            if child.kind == .text {
                run += child.literal
                continue
            }
            if !run.isEmpty { text(run, style: style, into: &lines) }
            run = ""
            inline(child, style: style, into: &lines)
        }
        if !run.isEmpty { text(run, style: style, into: &lines) }
    }

    /// Prose, with each `[[link]]` in it drawn as a link: marked when it leads nowhere to read,
    /// by its item's title when written by id (`linkLooks`).
    private func text(_ text: String, style: Style, into lines: inout [Line]) {
        let links = WikiLink.occurrences(inLine: text)
        guard !links.isEmpty else {
            lines[lines.count - 1].append(Span(text, style: style))
            return
        }
        let bytes = Array(text.utf8)
        var from = 0
        for link in links {
            if link.range.lowerBound > from {
                let before = String(decoding: bytes[from..<link.range.lowerBound], as: UTF8.self)
                lines[lines.count - 1].append(Span(before, style: style))
            }
            let look = linkLooks[WikiLink.key(link.text)]
            var shown = String(decoding: bytes[link.range], as: UTF8.self)
            var mark: LinkReach?
            switch look {
            case .titled(let title, let reach)?:
                shown = "[[\(title)]]"
                mark = reach
            case .marked(let reach)?: mark = reach
            case nil: break
            }
            lines[lines.count - 1].append(Span(shown, style: style.withRole(.link)))
            if let mark { lines[lines.count - 1].append(Span(" " + mark.mark, .linkMissing)) }
            from = link.range.upperBound
        }
        if from < bytes.count {
            lines[lines.count - 1].append(Span(String(decoding: bytes[from...], as: UTF8.self), style: style))
        }
    }

    /// The text added since `start` (a line count and that line's span count).
    private func shownText(from start: (line: Int, span: Int), in lines: [Line]) -> String {
        var text = ""
        for index in (start.line - 1)..<lines.count {
            let spans = lines[index].spans
            text += spans[(index == start.line - 1 ? start.span : 0)...].map(\.text).joined()
        }
        return text
    }

    /// Whether a link's target adds anything to its text: an autolink (`https://…`,
    /// `www.…`, an address) shows its target as its text already.
    func showsTarget(_ url: String, text: String) -> Bool {
        guard !url.isEmpty else { return false }
        return ![text, "http://" + text, "https://" + text, "mailto:" + text].contains(url)
    }
}

extension Style {
    /// The style with another role, keeping the attributes added on top.
    func withRole(_ role: Role) -> Style {
        var copy = self
        copy.role = role
        return copy
    }
}
