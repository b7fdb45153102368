import TerminalUI

/// A one-line text input with a cursor (the editor's title, the search and tag prompts).
public struct TextField: Hashable, Sendable {
    public private(set) var characters: [Character]
    /// Index in `characters` the next typed character goes before.
    public private(set) var cursor: Int

    public init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    public var text: String { String(characters) }
    public var isEmpty: Bool { characters.isEmpty }

    // MARK: - Editing

    public mutating func insert(_ character: Character) {
        guard character != "\n", character != "\r" else { return }
        characters.insert(character, at: cursor)
        cursor += 1
    }

    public mutating func insert(_ text: String) {
        for character in text { insert(character) }
    }

    /// Pasted text: line breaks and tabs become spaces (one line holds it all), nothing dropped.
    public mutating func paste(_ text: String) {
        let flat = text.map { $0 == "\t" || $0.isNewline ? " " : $0 }
        characters.insert(contentsOf: flat, at: cursor)
        cursor += flat.count
    }

    public mutating func backspace() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    public mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    /// Deletes from the cursor to the end (Ctrl-K).
    public mutating func killToEnd() {
        characters.removeSubrange(cursor...)
    }

    /// Deletes the word before the cursor and the spaces after it (Ctrl-W).
    public mutating func deleteWordBackward() {
        let start = TextField.wordStart(before: cursor, in: characters)
        characters.removeSubrange(start..<cursor)
        cursor = start
    }

    /// Where the word before `index` starts: back over spaces, then over the word.
    static func wordStart(before index: Int, in characters: [Character]) -> Int {
        var start = index
        while start > 0, characters[start - 1].isWhitespace { start -= 1 }
        while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
        return start
    }

    public mutating func moveLeft() { cursor = max(0, cursor - 1) }
    public mutating func moveRight() { cursor = min(characters.count, cursor + 1) }
    public mutating func moveToStart() { cursor = 0 }
    public mutating func moveToEnd() { cursor = characters.count }

    /// Applies one key of the editor keymap; a key that is no command types its character.
    /// False (and nothing changes) for a key that means nothing to a one-line field.
    mutating func edit(_ key: Key, _ command: Command?) -> Bool {
        switch command {
        case .cursorLeft?: moveLeft()
        case .cursorRight?: moveRight()
        case .cursorHome?: moveToStart()
        case .cursorEnd?: moveToEnd()
        case .deleteBackward?: backspace()
        case .deleteForward?: deleteForward()
        case .killLine?: killToEnd()
        case .deleteWord?: deleteWordBackward()
        default:
            guard case .character(let character) = key else { return false }
            insert(character)
        }
        return true
    }

    // MARK: - Display

    /// The part of the text to show in `width` cells and the cursor's column in it.
    ///
    /// Shows the start of the text while the cursor fits; otherwise scrolls so the cursor sits
    /// at the right edge. Recomputed from the text alone, so it needs no stored scroll state.
    public func visible(width: Int) -> (text: String, cursorX: Int) {
        guard width > 1 else { return ("", 0) }
        let beforeCursor = characters[..<cursor]
        let cursorX = String(beforeCursor).displayWidth
        if cursorX < width {
            return (text.truncated(toWidth: width, ellipsis: false), cursorX)
        }
        var start = cursor
        var used = 0
        while start > 0, used + characters[start - 1].displayWidth <= width - 1 {
            start -= 1
            used += characters[start].displayWidth
        }
        let shown = String(characters[start...]).truncated(toWidth: width, ellipsis: false)
        return (shown, used)
    }
}
