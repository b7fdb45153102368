import QuireCore
import TerminalUI

/// The search and tag prompts: one-line inputs over the list. Search filters as the person types.
extension AppState {
    mutating func promptKey(_ key: Key, _ command: Command?) -> [Effect] {
        guard var current = prompt else { return [] }
        switch command {
        case .accept?:
            prompt = nil
            if current.kind == .tag { return applyTag(current.field.text) }
            return []
        case .cancel?:
            prompt = nil
            switch current.kind {
            case .search:
                var query = list.query
                query.search = ""
                return setQuery(query)
            case .tag:
                return list.query == current.queryBefore ? [] : setQuery(current.queryBefore)
            }
        case .moveDown?:
            return select(list.selection + 1)
        case .moveUp?:
            return select(list.selection - 1)
        case .cursorLeft?:
            current.field.moveLeft()
        case .cursorRight?:
            current.field.moveRight()
        case .deleteBackward?:
            current.field.backspace()
        case .killLine?:
            current.field.killToEnd()
        case .deleteWord?:
            current.field.deleteWordBackward()
        case .quit?:
            return quit()
        default:
            guard case .character(let character) = key else { return [] }
            current.field.insert(character)
        }
        prompt = current
        guard current.kind == .search, current.field.text != list.query.search else { return [] }
        var query = list.query
        query.search = current.field.text
        return setQuery(query, keepSelection: false)
    }

    private mutating func applyTag(_ text: String) -> [Effect] {
        var tag = text.trimmingWhitespace()
        while tag.hasPrefix("#") { tag.removeFirst() }
        var query = list.query
        query.tag = tag.isEmpty ? nil : tag
        return query == list.query ? [] : setQuery(query)
    }
}
