import TerminalUI

extension MarkdownRenderer {
    /// A block's inline content as logical lines: a line break starts a new one, a soft one (a
    /// newline typed inside a paragraph) too. Notes are typed line by line (a packing list, an
    /// address) and read as typed, as GitHub's comments and most note apps show them; a line
    /// longer than the screen still wraps.
    func inlines(of node: MarkdownNode, style: Style) -> [Line] {
        var lines = [Line([])]
        for child in node.children { inline(child, style: style, into: &lines) }
        return lines
    }

    private func inline(_ node: MarkdownNode, style: Style, into lines: inout [Line]) {
        switch node.kind {
        case .text:
            lines[lines.count - 1].append(Span(node.literal, style: style))
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

    private func children(of node: MarkdownNode, style: Style, into lines: inout [Line]) {
        for child in node.children { inline(child, style: style, into: &lines) }
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
