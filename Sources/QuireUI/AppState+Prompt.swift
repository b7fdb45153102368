import QuireCore
import TerminalUI

/// The search and tag prompts: one-line inputs over the list. Search filters as the person types.
/// The file prompts (attach, save) take a path over the item view.
extension AppState {
    mutating func promptKey(_ key: Key, _ command: Command?) -> [Effect] {
        guard var current = prompt else { return [] }
        // A tag prompt opens holding the tag shown now, as if selected: typing replaces it,
        // Backspace clears it, moving the cursor keeps it to edit.
        let replacing = current.replacesOnTyping
        current.replacesOnTyping = false
        switch command {
        case .accept?:
            if current.kind.isFilePrompt { return acceptFilePrompt(current) }
            prompt = nil
            if current.kind == .tag { return applyTag(current.field.text) }
            return []
        case .cancel?:
            prompt = nil
            switch current.kind {
            case .search:
                return setQuery(list.query.withoutSearch)
            case .tag:
                return list.query == current.queryBefore ? [] : setQuery(current.queryBefore)
            case .attachFile, .saveAttachment:
                return []
            }
        case .moveDown? where !current.kind.isFilePrompt:
            prompt = current
            return select(list.selection + 1)
        case .moveUp? where !current.kind.isFilePrompt:
            prompt = current
            return select(list.selection - 1)
        case .cursorLeft?:
            current.field.moveLeft()
        case .cursorRight?:
            current.field.moveRight()
        case .cursorHome?:
            current.field.moveToStart()
        case .cursorEnd?:
            current.field.moveToEnd()
        case .deleteBackward?:
            if replacing { current.field = TextField() } else { current.field.backspace() }
        case .complete?:
            prompt = current
            if current.kind.isFilePrompt { return [.complete(.path, prefix: current.field.text)] }
            guard current.kind == .tag else { return [] }
            return [.complete(.tag, prefix: AppState.tagText(current.field.text))]
        case .killLine?:
            current.field.killToEnd()
        case .deleteWord?:
            current.field.deleteWordBackward()
        case .quit?:
            return quit()
        default:
            guard case .character(let character) = key else {
                current.replacesOnTyping = replacing
                prompt = current
                return []
            }
            if replacing { current.field = TextField() }
            current.field.insert(character)
        }
        prompt = current
        return searchFollowsPrompt()
    }

    /// The search prompt filters as the person types: a new query when its text changed and
    /// reads as a filter; while it does not (`due:` half typed), the list stays as it was and
    /// the prompt says why.
    mutating func searchFollowsPrompt() -> [Effect] {
        guard var current = prompt, current.kind == .search, current.field.text != list.query.search else { return [] }
        var query = list.query
        do {
            try query.search(current.field.text, calendar: filterCalendar)
            current.error = nil
        } catch {
            current.error = error.description
        }
        prompt = current
        guard current.error == nil else { return [] }
        return setQuery(query, keepSelection: false)
    }

    /// The tag a prompt's text names: trimmed, without leading `#`.
    static func tagText(_ text: String) -> String {
        var tag = text.trimmingWhitespace()
        while tag.hasPrefix("#") { tag.removeFirst() }
        return tag
    }

    /// Tab's answer: one tag fills the prompt; several fill what they share and are listed.
    mutating func complete(_ prefix: String, with tags: [String]) -> [Effect] {
        guard var current = prompt, current.kind == .tag, AppState.tagText(current.field.text) == prefix else {
            return []  // the person typed on meanwhile
        }
        guard let first = tags.first else {
            notice = Notice(text: "No tag starts with “\(prefix)”", isError: false)
            return []
        }
        current.field = TextField(tags.count == 1 ? first : CompletionKind.shared(tags))
        prompt = current
        if tags.count > 1 { notice = .info(CompletionKind.listed(tags.map(DetailsLine.tagWord))) }
        return []
    }

    private mutating func applyTag(_ text: String) -> [Effect] {
        let tag = AppState.tagText(text)
        var query = list.query
        query.tag = tag.isEmpty ? nil : tag
        return query == list.query ? [] : setQuery(query)
    }
}
