import QuireCore

/// Following links (SPEC: TUI, "a link picker and the backlinks of an item"): `L` lists the
/// item's links and backlinks, Enter opens the item one reaches in the item view, and
/// Backspace there goes back along the links followed (`linkTrail`).
///
/// Why the list is reset when a link is followed: the item view shows the list's selected
/// item, and the target may be outside a filtered list; every live item is in the unfiltered
/// one, where the selection is put on it.
extension AppState {
    public var linkPicker: LinkPickerState? {
        if case .links(let picker) = screen { return picker }
        return nil
    }

    /// The picker starts from the links the item view read, and reads them again.
    mutating func openLinks(of item: Item) -> [Effect] {
        var picker = LinkPickerState(itemID: item.id, title: item.title)
        if let known = itemLinks, known.itemID == item.id { picker.entries = known.entries }
        screen = .links(picker)
        return [.loadLinks(id: item.id)]
    }

    mutating func showLinks(_ id: String, _ entries: [LinkEntry]) {
        if id == list.selectedID { itemLinks = ItemLinks(itemID: id, entries: entries) }
        guard var picker = linkPicker, picker.itemID == id else { return }
        picker.entries = entries
        picker.selected = min(picker.selected, max(0, entries.count - 1))
        screen = .links(picker)
    }

    mutating func linksCommand(_ command: Command) -> [Effect] {
        guard var picker = linkPicker else { return [] }
        let last = max(0, (picker.entries?.count ?? 1) - 1)
        if let moved = AppState.selection(after: command, from: picker.selected, last: last) {
            picker.selected = moved
            screen = .links(picker)
            return []
        }
        switch command {
        case .back:
            screen = .detail(scroll: 0)
            return []
        case .quit: return quit()
        case .open:
            guard let entry = picker.entries?[safe: picker.selected] else { return [] }
            guard let target = entry.target else {
                notice = .info("[[\(entry.text)]] reaches no item")
                return []
            }
            guard !target.deleted else {
                notice = .info("“\(target.title)” is deleted: T opens the trash")
                return []
            }
            linkTrail.append(picker.itemID)
            return showItem(target.id)
        default: break
        }
        screen = .links(picker)
        return []
    }

    /// Backspace in the item view: the item the last link was followed from.
    mutating func followBack() -> [Effect] {
        guard let previous = linkTrail.popLast() else {
            notice = .info("No link followed: L lists this item's links")
            return []
        }
        return showItem(previous)
    }

    /// The item view of `id`, selected in the unfiltered list (see the type's comment).
    private mutating func showItem(_ id: String) -> [Effect] {
        screen = .detail(scroll: 0)
        selectedBox = nil
        selectedAttachment = 0
        list.query = ListQuery()
        return [reload(anchorID: .some(id))]
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
