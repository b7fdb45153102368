import CCmarkGFM
import Synchronization

/// cmark-gfm keeps state for the whole process that a parse changes: it registers its
/// extensions on first use behind a plain flag, and attaching an extension to a parser, or
/// freeing the parser, adds or removes the extension's characters in one table that every
/// parser reads. Two parses at once lost `~~` from one of them (5 in 60 runs of the rendering
/// tests, which render three widths at once), so the process parses one document at a time.
private let oneParseAtATime = Mutex(())

/// One parsed Markdown document, owned: cmark-gfm's tree is freed with it.
final class MarkdownTree {
    let root: MarkdownNode

    /// Parses UTF-8 Markdown with GitHub's extensions; nil when the parser could not start.
    init?(_ bytes: ArraySlice<UInt8>) {
        let document = oneParseAtATime.withLock { _ in
            bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.map { base in
                    base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                        quire_markdown_parse($0, buffer.count)
                    }
                } ?? quire_markdown_parse("", 0)
            }
        }
        guard let document else { return nil }
        root = MarkdownNode(pointer: document)
    }

    deinit { cmark_node_free(root.pointer) }
}

/// A node of a `MarkdownTree`, read while the tree lives.
struct MarkdownNode {
    let pointer: OpaquePointer

    /// What the node is, with GitHub's extension nodes told apart by their names.
    enum Kind: Equatable {
        case document, blockQuote, list, item, codeBlock, htmlBlock, paragraph, heading, thematicBreak
        case table, tableRow, tableCell
        case text, softBreak, lineBreak, code, htmlInline, emphasis, strong, link, image, strikethrough
        case other
    }

    var kind: Kind {
        switch cmark_node_get_type(pointer) {
        case CMARK_NODE_DOCUMENT: return .document
        case CMARK_NODE_BLOCK_QUOTE: return .blockQuote
        case CMARK_NODE_LIST: return .list
        case CMARK_NODE_ITEM: return .item
        case CMARK_NODE_CODE_BLOCK: return .codeBlock
        case CMARK_NODE_HTML_BLOCK: return .htmlBlock
        case CMARK_NODE_PARAGRAPH: return .paragraph
        case CMARK_NODE_HEADING: return .heading
        case CMARK_NODE_THEMATIC_BREAK: return .thematicBreak
        case CMARK_NODE_TEXT: return .text
        case CMARK_NODE_SOFTBREAK: return .softBreak
        case CMARK_NODE_LINEBREAK: return .lineBreak
        case CMARK_NODE_CODE: return .code
        case CMARK_NODE_HTML_INLINE: return .htmlInline
        case CMARK_NODE_EMPH: return .emphasis
        case CMARK_NODE_STRONG: return .strong
        case CMARK_NODE_LINK: return .link
        case CMARK_NODE_IMAGE: return .image
        default: break
        }
        // Extension node types are numbered as they register; their names are stable.
        switch typeName {
        case "table": return .table
        case "table_header", "table_row": return .tableRow
        case "table_cell": return .tableCell
        case "strikethrough": return .strikethrough
        case "tasklist": return .item
        default: return .other
        }
    }

    var typeName: String { cmark_node_get_type_string(pointer).map { String(cString: $0) } ?? "" }

    var children: [MarkdownNode] {
        var result: [MarkdownNode] = []
        var next = cmark_node_first_child(pointer)
        while let node = next {
            result.append(MarkdownNode(pointer: node))
            next = cmark_node_next(node)
        }
        return result
    }

    var literal: String { cmark_node_get_literal(pointer).map { String(cString: $0) } ?? "" }
    var url: String { cmark_node_get_url(pointer).map { String(cString: $0) } ?? "" }
    var headingLevel: Int { Int(cmark_node_get_heading_level(pointer)) }
    var isOrderedList: Bool { cmark_node_get_list_type(pointer) == CMARK_ORDERED_LIST }
    var listStart: Int { Int(cmark_node_get_list_start(pointer)) }
    var isTightList: Bool { cmark_node_get_list_tight(pointer) != 0 }
    /// A task list item's box: nil for an ordinary item.
    var taskChecked: Bool? {
        typeName == "tasklist" ? cmark_gfm_extensions_get_tasklist_item_checked(pointer) : nil
    }
    var isHeaderRow: Bool { cmark_gfm_extensions_get_table_row_is_header(pointer) != 0 }

    /// A table's column alignments: `l`, `r`, `c` or nothing (left).
    var tableAlignments: [UInt8] {
        let count = Int(cmark_gfm_extensions_get_table_columns(pointer))
        guard let alignments = cmark_gfm_extensions_get_table_alignments(pointer) else {
            return Array(repeating: 0, count: count)
        }
        return (0..<count).map { alignments[$0] }
    }
}
