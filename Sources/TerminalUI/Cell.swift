/// One cell of the screen grid: the grapheme drawn there and its style.
///
/// A wide grapheme (CJK, most emoji) occupies its cell and the next one; the next one is then a
/// continuation cell with an empty symbol, which backends skip when drawing.
public struct Cell: Hashable, Sendable {
    public var symbol: String
    public var style: Style

    public init(_ symbol: String, style: Style = .normal) {
        self.symbol = symbol
        self.style = style
    }

    public static let blank = Cell(" ")

    /// The right half of a wide grapheme.
    public static func continuation(_ style: Style) -> Cell { Cell("", style: style) }

    public var isContinuation: Bool { symbol.isEmpty }
}
