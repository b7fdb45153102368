/// What a piece of text means on screen; a `Theme` decides how each role looks.
///
/// Views name roles, never colours, so that the same screen reads well in colour, in monochrome
/// (`NO_COLOR`, terminals without colour) and as a plain-text snapshot.
public enum Role: String, CaseIterable, Hashable, Sendable {
    case normal
    case muted
    case accent
    case title
    case border
    case selection
    case statusBar
    case statusError
    case statusInfo
    case keyHint
    case keyName
    case badgePending
    case badgeSyncing
    case badgeReview
    case badgeError
    case done
    case pinned
    case tag
    case due
    case overdue
    case priorityHigh
    case priorityMedium
    case priorityLow
    case searchBar
    case editorField
    case editorFocus
    case dialog
    case diffAdded
    case diffRemoved
    case error
    /// Rendered Markdown: a heading's text.
    case heading
    /// Rendered Markdown: inline code.
    case code
    /// Rendered Markdown: a fenced or indented code block, drawn unwrapped.
    case codeBlock
    /// Rendered Markdown: a link's text.
    case link
    /// Rendered Markdown: a link's target, shown after its text.
    case linkTarget
    /// Rendered Markdown: the mark after a `[[link]]` that reaches no item, or a deleted one.
    case linkMissing
    /// Rendered Markdown: a block quote's text and bar.
    case quote
    /// Rendered Markdown: struck-through text (terminals draw it dimmed).
    case strikethrough
}

/// How one cell is drawn: its role plus attributes a view may add on top.
public struct Style: Hashable, Sendable {
    public var role: Role
    public var bold: Bool
    public var underline: Bool
    public var reverse: Bool

    public init(_ role: Role = .normal, bold: Bool = false, underline: Bool = false, reverse: Bool = false) {
        self.role = role
        self.bold = bold
        self.underline = underline
        self.reverse = reverse
    }

    public static let normal = Style()

    public func bolded() -> Style {
        var copy = self
        copy.bold = true
        return copy
    }

    public func reversed() -> Style {
        var copy = self
        copy.reverse = true
        return copy
    }
}
