/// What Tab completes in the editor's body: the title of a `[[` link being typed.
extension TextArea {
    /// The text typed since an unclosed `[[` before the cursor on its line (empty right after
    /// the brackets); nil when the cursor is not inside one. A link's text holds no bracket, so
    /// a `[` or `]` before the cursor ends the search.
    public var openLinkText: String? {
        let before = characters(inLine: line)[..<column]
        var index = before.endIndex
        while index > before.startIndex {
            index -= 1
            switch before[index] {
            case "]": return nil
            case "[":
                guard index > before.startIndex, before[index - 1] == "[" else { return nil }
                return String(before[(index + 1)...])
            default: continue
            }
        }
        return nil
    }

    /// Puts `replacement` in place of the `typed` characters before the cursor; `closing` ends
    /// the link with `]]`, or steps over the `]]` already after the cursor.
    mutating func replaceBeforeCursor(_ typed: String, with replacement: String, closing: Bool) {
        for _ in typed { backspace() }
        insert(replacement)
        guard closing else { return }
        let after = characters(inLine: line)[column...]
        if after.starts(with: ["]", "]"]) {
            moveRight()
            moveRight()
        } else {
            insert("]]")
        }
    }
}
