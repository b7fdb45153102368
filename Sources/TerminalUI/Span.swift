/// A run of text in one style.
public struct Span: Hashable, Sendable {
    public var text: String
    public var style: Style

    public init(_ text: String, style: Style = .normal) {
        self.text = text
        self.style = style
    }

    public init(_ text: String, _ role: Role) {
        self.init(text, style: Style(role))
    }

    public var width: Int { text.displayWidth }
}

/// One line of styled text made of spans.
public struct Line: Hashable, Sendable, ExpressibleByStringLiteral {
    public var spans: [Span]

    public init(_ spans: [Span]) {
        self.spans = spans
    }

    public init(_ text: String, style: Style = .normal) {
        self.spans = [Span(text, style: style)]
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public var width: Int { spans.reduce(0) { $0 + $1.width } }
    public var plainText: String { spans.map(\.text).joined() }

    public mutating func append(_ span: Span) {
        spans.append(span)
    }

    public mutating func append(_ text: String, _ role: Role = .normal) {
        spans.append(Span(text, role))
    }
}

extension Line {
    /// The line cut to `width` cells, with an ellipsis at the cut when it does not fit.
    public func truncated(toWidth width: Int) -> Line {
        guard self.width > width else { return self }
        var result = Line([])
        var room = width
        for span in spans {
            if span.width < room {
                result.append(span)
                room -= span.width
            } else {
                result.append(Span(span.text.truncated(toWidth: room), style: span.style))
                break
            }
        }
        return result
    }

    /// The line cut or padded with spaces to exactly `width` cells.
    public func padded(toWidth width: Int, style: Style = .normal) -> Line {
        var result = truncated(toWidth: width)
        let missing = width - result.width
        if missing > 0 { result.append(Span(String(repeating: " ", count: missing), style: style)) }
        return result
    }
}
