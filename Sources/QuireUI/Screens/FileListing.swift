import QuireCore
import TerminalUI

/// What the item view knows of its attached files beyond their references: where each stands
/// on this device, and which one `o` and `w` act on.
public struct FileListing: Hashable, Sendable {
    /// By content hash; nil until read (the lines then show names and sizes only).
    public var states: [String: AttachmentState]?
    public var selected: Int

    public init(states: [String: AttachmentState]?, selected: Int) {
        self.states = states
        self.selected = selected
    }

    /// The marker before the selected file when there are several to choose from.
    static let selectedMark = "›"

    /// `📎 tickets.pdf  1.2 MB  uploading 40%`; the selected one of several marked with `›`.
    static func line(_ file: AttachedFile, index: Int, of count: Int, listing: FileListing?) -> Line {
        var line = Line([])
        if let listing, count > 1 {
            let isSelected = index == min(max(0, listing.selected), count - 1)
            line.append(isSelected ? Span(selectedMark + " ", .accent) : Span("  "))
        }
        line.spans += [
            Span(ItemRow.attachmentMark + " ", .muted), Span(file.name), Span("  " + ByteCount.text(file.size), .muted),
        ]
        if let state = listing?.states?[file.hash] {
            line.append(Span("  " + state.description, role(of: state)))
        }
        return line
    }

    private static func role(of state: AttachmentState) -> Role {
        switch state {
        case .here: .muted
        case .refused: .badgeError
        case .waitingToUpload, .uploading, .waitingToDownload, .downloading: .badgePending
        }
    }
}
