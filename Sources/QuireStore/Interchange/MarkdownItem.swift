import Foundation
import QuireCore

/// An item as a Markdown file: a front-matter header (`---` lines around `key: value` pairs, a
/// small subset of YAML that other Markdown tools read too), then the body.
///
/// ```
/// ---
/// id: 0193a9d2-7fff-7000-8000-00000000abcd
/// kind: task
/// title: Buy milk
/// tags: [errands, home]
/// due: 2026-11-30
/// project: home.errands
/// ---
///
/// Oat, not soy.
/// ```
///
/// `quire export --format markdown` writes one such file per item, `quire import` reads them
/// back, and `quire edit` hands one (without the bookkeeping keys) to the editor.
public enum MarkdownItem {
    /// The whole file for export: every field, then the body (`body`: the item's, its links
    /// spelled for export: `AppDatabase.forEachItemForExport`).
    public static func render(_ item: Item, body: String? = nil) -> String {
        let body = body ?? item.body
        var lines = ["---", "id: \(item.id)"]
        lines += editableLines(item)
        if let doneAt = item.doneAt { lines.append("doneAt: \(StoreTime.string(from: doneAt))") }
        lines.append("createdAt: \(StoreTime.string(from: item.createdAt))")
        lines.append("updatedAt: \(StoreTime.string(from: item.updatedAt))")
        if item.deleted { lines.append("deleted: true") }
        lines.append("---")
        return lines.joined(separator: "\n") + "\n" + (body.isEmpty ? "" : "\n" + body)
    }

    /// What `quire edit` opens in the editor: the fields a person edits, then the body.
    public static func renderForEditing(_ item: Item) -> String {
        var lines = ["---", "# Edit the fields and the body, then save and quit. Lines starting with # are ignored."]
        lines += editableLines(item)
        lines.append("---")
        return lines.joined(separator: "\n") + "\n\n" + item.body
    }

    private static func editableLines(_ item: Item) -> [String] {
        var lines = [
            "kind: \(item.kind.rawValue)",
            "title: \(scalar(item.title))",
            "tags: [\(item.tags.map(scalar).joined(separator: ", "))]",
        ]
        if item.kind == .task { lines.append("done: \(item.done)") }
        lines.append("due: \(item.due?.description ?? "none")")
        lines.append("priority: \(item.priority.rawValue)")
        lines.append("pinned: \(item.pinned)")
        lines.append("project: \(item.project.map(scalar) ?? "none")")
        if item.kind == .task {
            lines.append("recur: \(item.recur?.description ?? "none")")
            lines.append("wait: \(item.wait?.description ?? "none")")
            lines.append("scheduled: \(item.scheduled?.description ?? "none")")
        }
        return lines
    }

    /// The folder an exported item goes in, relative to the export's: its project's names one
    /// inside the other (`home.garden` → `home/garden`), as notebooks are folders. Nil (the
    /// export's own folder) for no project, or one with a name a folder cannot take (a `/`, a
    /// leading dot, too long): the header names the project either way.
    public static func folder(for item: Item) -> String? {
        guard let project = item.project else { return nil }
        let names = project.split(separator: ".").map(String.init)
        let fits = names.allSatisfy { !$0.contains("/") && !$0.hasPrefix(".") && $0.utf8.count <= 255 }
        return fits ? names.joined(separator: "/") : nil
    }

    /// The project a folder of an import stands for (see `folder(for:)`), nil when it names
    /// none (the import's own folder) or cannot be one.
    public static func project(forFolder folder: String) -> String? {
        let names = folder.split(separator: "/").map(String.init)
        guard !names.isEmpty, !names.contains(where: { $0.contains(".") }) else { return nil }
        return try? Validation.project(names.joined(separator: "."))
    }

    /// A file name for an exported item: a slug of its title and its full id, so names are
    /// readable and never collide.
    public static func fileName(for item: Item) -> String {
        var slug = ""
        for character in item.title.lowercased() {
            if character.isLetter || character.isNumber {
                slug.append(character)
            } else if !slug.isEmpty && slug.last != "-" {
                slug.append("-")
            }
            if slug.count >= 40 { break }
        }
        while slug.last == "-" { slug.removeLast() }
        return (slug.isEmpty ? "item" : slug) + "-" + item.id + ".md"
    }

    /// Reads a Markdown file. Without a front matter, the whole text is the body and the title
    /// is the first `# ` heading or else `fallbackTitle` (the file name). `folderProject` (the
    /// project of the folder the file is in) is the item's project unless the header names one.
    public static func parse(
        _ text: String, fallbackTitle: String? = nil, folderProject: String? = nil
    ) throws(ImportError) -> ImportEntry {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
        guard lines.first == "---", let closing = lines.dropFirst().firstIndex(of: "---") else {
            var entry = try entryWithoutFrontMatter(text, lines: lines, fallbackTitle: fallbackTitle)
            entry.project = folderProject
            return entry
        }
        let values = try keyValues(Array(lines[1..<closing]), firstLine: 2)
        var bodyLines = Array(lines[(closing + 1)...])
        if bodyLines.first == "" { bodyLines.removeFirst() }
        let body = bodyLines.joined(separator: "\n")
        var parsed = try entry(values, body: body, fallbackTitle: fallbackTitle)
        if values["project"] == nil { parsed.project = folderProject }
        return parsed
    }

    // MARK: - Reading

    /// A front-matter value: one scalar or a list of them, with the line it came from.
    enum Value {
        case scalar(String)
        case list([String])
    }

    static func keyValues(_ lines: [String], firstLine: Int) throws(ImportError) -> [String: (value: Value, line: Int)]
    {
        var result: [String: (value: Value, line: Int)] = [:]
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let number = firstLine + index
            index += 1
            let trimmed = line.trimmingWhitespace()
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix(" "), !line.hasPrefix("-") else {
                throw ImportError("line \(number)", "expected 'key: value' in the header")
            }
            let key = String(line[..<colon]).trimmingWhitespace()
            let rest = String(line[line.index(after: colon)...]).trimmingWhitespace()
            if rest.isEmpty {
                // A block list follows ("  - item" lines), or the value is empty.
                var items: [String] = []
                while index < lines.count {
                    let item = lines[index].trimmingWhitespace()
                    guard item.hasPrefix("- ") || item == "-" else { break }
                    items.append(
                        try scalarValue(String(item.dropFirst()).trimmingWhitespace(), line: firstLine + index))
                    index += 1
                }
                result[key] = (items.isEmpty ? .scalar("") : .list(items), number)
            } else if rest.hasPrefix("[") {
                result[key] = (.list(try flowList(rest, line: number)), number)
            } else {
                result[key] = (.scalar(try scalarValue(rest, line: number)), number)
            }
        }
        return result
    }

    private static func entry(
        _ values: [String: (value: Value, line: Int)], body: String, fallbackTitle: String?
    ) throws(ImportError) -> ImportEntry {
        func text(_ key: String) throws(ImportError) -> String? {
            guard let (value, line) = values[key] else { return nil }
            guard case .scalar(let text) = value else {
                throw ImportError("line \(line)", "'\(key)' must be a single value")
            }
            return text
        }
        func located<T>(_ key: String, _ parse: (String) throws(ImportError) -> T) throws(ImportError) -> T? {
            guard let raw = try text(key) else { return nil }
            do { return try parse(raw) } catch { throw ImportError("line \(values[key]!.line)", error.reason) }
        }
        func flag(_ key: String) throws(ImportError) -> Bool? {
            try located(key) { raw throws(ImportError) in
                switch raw.lowercased() {
                case "true", "yes": return true
                case "false", "no": return false
                default: throw ImportError("", "'\(key)' must be true or false")
                }
            }
        }
        var tags: [String] = []
        if let (value, _) = values["tags"] {
            switch value {
            case .list(let list): tags = list
            case .scalar(let single): tags = single.isEmpty ? [] : [single]
            }
        }
        let title = try located("title") { raw throws(ImportError) in try FieldParsing.title(raw) }
        guard let title = title ?? fallbackTitle.flatMap({ try? Validation.title($0) }) else {
            throw ImportError("", "the header has no 'title'")
        }
        return ImportEntry(
            id: try located("id") { raw throws(ImportError) in try FieldParsing.id(raw) },
            kind: try located("kind") { raw throws(ImportError) in try FieldParsing.kind(raw) } ?? .note,
            title: title,
            body: try FieldParsing.body(body),
            tags: tags,
            done: try flag("done") ?? false,
            doneAt: try located("doneAt") { raw throws(ImportError) in try FieldParsing.time(raw, field: "doneAt") },
            due: try located("due") { raw throws(ImportError) in try FieldParsing.due(raw) } ?? nil,
            priority: try located("priority") { raw throws(ImportError) in try FieldParsing.priority(raw) } ?? .none,
            pinned: try flag("pinned") ?? false,
            project: try located("project") { raw throws(ImportError) in try FieldParsing.project(raw) } ?? nil,
            recur: try located("recur") { raw throws(ImportError) in try FieldParsing.recurrence(raw) } ?? nil,
            wait: try located("wait") { raw throws(ImportError) in try FieldParsing.due(raw) } ?? nil,
            scheduled: try located("scheduled") { raw throws(ImportError) in try FieldParsing.due(raw) } ?? nil,
            createdAt: try located("createdAt") { raw throws(ImportError) in
                try FieldParsing.time(raw, field: "createdAt")
            },
            updatedAt: try located("updatedAt") { raw throws(ImportError) in
                try FieldParsing.time(raw, field: "updatedAt")
            },
            deleted: try flag("deleted") ?? false)
    }

    private static func entryWithoutFrontMatter(
        _ text: String, lines: [String], fallbackTitle: String?
    ) throws(ImportError) -> ImportEntry {
        if let headingIndex = lines.firstIndex(where: { $0.hasPrefix("# ") }),
            lines[..<headingIndex].allSatisfy({ $0.trimmingWhitespace().isEmpty })
        {
            var rest = Array(lines[(headingIndex + 1)...])
            if rest.first?.trimmingWhitespace().isEmpty == true { rest.removeFirst() }
            return ImportEntry(
                title: try FieldParsing.title(String(lines[headingIndex].dropFirst(2))),
                body: try FieldParsing.body(rest.joined(separator: "\n")))
        }
        guard let fallbackTitle, let title = try? Validation.title(fallbackTitle) else {
            throw ImportError("", "no front matter and no '# ' title heading")
        }
        return ImportEntry(title: title, body: try FieldParsing.body(text))
    }

    // MARK: - Scalars and lists

    /// Writes a string plain when a YAML reader would read it back unchanged, else quoted.
    static func scalar(_ text: String) -> String {
        let reservedStarts: Set<Character> = [
            "-", "?", ":", ",", "[", "]", "{", "}", "#", "&", "*", "!", "|", ">", "'", "\"", "%", "@", "`",
        ]
        let reservedWords: Set<String> = ["true", "false", "yes", "no", "null", "~", "none", "on", "off"]
        let plain =
            !text.isEmpty && !reservedStarts.contains(text.first!) && text.trimmingWhitespace() == text
            && !text.contains(": ") && !text.contains(" #") && !text.hasSuffix(":") && !text.contains(",")
            && !reservedWords.contains(text.lowercased())
            && !text.unicodeScalars.contains(where: { $0.value < 32 || $0.value == 127 })
        if plain { return text }
        var bytes = [UInt8]()
        CompactJSON.appendString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func scalarValue(_ raw: String, line: Int) throws(ImportError) -> String {
        if raw.hasPrefix("\"") {
            guard let text = try? JSONDecoder().decode(String.self, from: Data(raw.utf8)) else {
                throw ImportError("line \(line)", "a quoted value is not closed properly")
            }
            return text
        }
        if raw.hasPrefix("'") {
            guard raw.count >= 2, raw.hasSuffix("'") else {
                throw ImportError("line \(line)", "a quoted value is not closed properly")
            }
            return String(raw.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
        }
        return raw
    }

    /// `[a, "b, c", 'd']`.
    static func flowList(_ raw: String, line: Int) throws(ImportError) -> [String] {
        guard raw.hasSuffix("]") else { throw ImportError("line \(line)", "a list must end with ']'") }
        let inner = raw.dropFirst().dropLast()
        var items: [String] = []
        var current = ""
        var quote: Character?
        var escaped = false
        for character in inner {
            if let open = quote {
                current.append(character)
                if escaped {
                    escaped = false
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else if character == open {
                    quote = nil
                }
            } else if character == "," {
                items.append(current)
                current = ""
            } else {
                if (character == "\"" || character == "'") && current.trimmingWhitespace().isEmpty { quote = character }
                current.append(character)
            }
        }
        if quote != nil { throw ImportError("line \(line)", "a quoted value is not closed properly") }
        items.append(current)
        var result: [String] = []
        for item in items {
            let trimmed = item.trimmingWhitespace()
            if trimmed.isEmpty { continue }
            result.append(try scalarValue(trimmed, line: line))
        }
        return result
    }
}
