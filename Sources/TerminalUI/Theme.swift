/// The eight basic terminal colours plus the terminal's own default.
public enum TerminalColor: Int, Hashable, Sendable, CaseIterable {
    case `default` = -1
    case black = 0
    case red = 1
    case green = 2
    case yellow = 3
    case blue = 4
    case magenta = 5
    case cyan = 6
    case white = 7
}

/// How one role looks: colours and attributes.
public struct Appearance: Hashable, Sendable {
    public var foreground: TerminalColor
    public var background: TerminalColor
    public var bold: Bool
    public var dim: Bool
    public var underline: Bool
    public var reverse: Bool

    public init(
        _ foreground: TerminalColor = .default, on background: TerminalColor = .default,
        bold: Bool = false, dim: Bool = false, underline: Bool = false, reverse: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.underline = underline
        self.reverse = reverse
    }

    /// This appearance with a style's own attributes added on top.
    public func adding(_ style: Style) -> Appearance {
        var copy = self
        copy.bold = copy.bold || style.bold
        copy.underline = copy.underline || style.underline
        if style.reverse { copy.reverse.toggle() }
        return copy
    }
}

/// Maps every role to an appearance; backends ask the theme, views never do.
public struct Theme: Sendable {
    public var appearances: [Role: Appearance]

    public init(_ appearances: [Role: Appearance]) {
        self.appearances = appearances
    }

    public func appearance(for style: Style) -> Appearance {
        (appearances[style.role] ?? Appearance()).adding(style)
    }

    /// Colours on the terminal's default background.
    public static let standard = Theme([
        .normal: Appearance(),
        .muted: Appearance(dim: true),
        .accent: Appearance(.cyan, bold: true),
        .title: Appearance(bold: true),
        .border: Appearance(.blue),
        .selection: Appearance(.black, on: .cyan),
        .statusBar: Appearance(.black, on: .white),
        .statusError: Appearance(.white, on: .red, bold: true),
        .statusInfo: Appearance(.black, on: .green),
        .keyHint: Appearance(dim: true),
        .keyName: Appearance(.cyan, bold: true),
        .badgePending: Appearance(.yellow, bold: true),
        .badgeSyncing: Appearance(.blue, bold: true),
        .badgeReview: Appearance(.magenta, bold: true),
        .badgeError: Appearance(.red, bold: true),
        .done: Appearance(dim: true),
        .pinned: Appearance(.yellow, bold: true),
        .tag: Appearance(.green),
        .due: Appearance(.cyan),
        .overdue: Appearance(.red, bold: true),
        .priorityHigh: Appearance(.red, bold: true),
        .priorityMedium: Appearance(.yellow),
        .priorityLow: Appearance(.blue),
        .searchBar: Appearance(.yellow, bold: true),
        .editorField: Appearance(),
        .editorFocus: Appearance(.cyan, bold: true),
        .dialog: Appearance(.white, on: .blue, bold: true),
        .diffAdded: Appearance(.green),
        .diffRemoved: Appearance(.red),
        .error: Appearance(.red, bold: true),
        .heading: Appearance(.magenta, bold: true),
        .code: Appearance(.yellow),
        .codeBlock: Appearance(.green),
        .link: Appearance(.blue, underline: true),
        .linkTarget: Appearance(dim: true),
        .linkMissing: Appearance(.red, dim: true),
        .quote: Appearance(.cyan),
        .strikethrough: Appearance(dim: true),
    ])

    /// Attributes only, for `NO_COLOR` and terminals without colour: meaning survives as
    /// bold, dim, underline and reverse video.
    public static let monochrome = Theme([
        .normal: Appearance(),
        .muted: Appearance(dim: true),
        .accent: Appearance(bold: true),
        .title: Appearance(bold: true),
        .border: Appearance(),
        .selection: Appearance(reverse: true),
        .statusBar: Appearance(reverse: true),
        .statusError: Appearance(bold: true, reverse: true),
        .statusInfo: Appearance(reverse: true),
        .keyHint: Appearance(),
        .keyName: Appearance(bold: true),
        .badgePending: Appearance(bold: true),
        .badgeSyncing: Appearance(bold: true),
        .badgeReview: Appearance(bold: true),
        .badgeError: Appearance(bold: true),
        .done: Appearance(dim: true),
        .pinned: Appearance(bold: true),
        .tag: Appearance(underline: true),
        .due: Appearance(),
        .overdue: Appearance(bold: true),
        .priorityHigh: Appearance(bold: true),
        .priorityMedium: Appearance(),
        .priorityLow: Appearance(dim: true),
        .searchBar: Appearance(bold: true),
        .editorField: Appearance(),
        .editorFocus: Appearance(bold: true),
        .dialog: Appearance(reverse: true),
        .diffAdded: Appearance(bold: true),
        .diffRemoved: Appearance(dim: true),
        .error: Appearance(bold: true),
        .heading: Appearance(bold: true),
        .code: Appearance(bold: true),
        .codeBlock: Appearance(),
        .link: Appearance(underline: true),
        .linkTarget: Appearance(dim: true),
        .linkMissing: Appearance(dim: true),
        .quote: Appearance(dim: true),
        .strikethrough: Appearance(dim: true),
    ])
}
