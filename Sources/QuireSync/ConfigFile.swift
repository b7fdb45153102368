import Foundation

/// The part of TOML that Quire's `config.toml` and `credentials` use: `[section]` headers,
/// `key = "basic string"` or `key = 'literal string'`, comments and blank lines.
///
/// No TOML library resolves for this package offline (the maintained Swift ones wrap a C++
/// parser and pull in packages that are not available), so this reader is strict instead of
/// large: anything outside the subset, and any key the caller does not know, is an error that
/// names the line. A typo never passes for a missing setting.
public struct ConfigFile: Sendable, Equatable {
    /// One `key = value` line.
    public struct Entry: Sendable, Equatable {
        public var section: String
        public var key: String
        public var value: String
        /// 1-based.
        public var line: Int
    }

    public private(set) var entries: [Entry] = []

    /// Parses `data`; throws a `ConfigFileError` naming the first line that is not in the subset.
    public init(parsing data: Data) throws(ConfigFileError) {
        var section = ""
        var sections: Set<String> = [""]
        var number = 0
        for rawLine in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            var bytes = Array(rawLine)
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            guard let line = String(validating: bytes, as: UTF8.self) else {
                throw ConfigFileError(line: number, "is not valid UTF-8")
            }
            var scanner = LineScanner(line, number: number)
            scanner.skipSpaces()
            if scanner.atEnd || scanner.peek == "#" { continue }
            if scanner.peek == "[" {
                section = try scanner.sectionHeader()
                guard sections.insert(section).inserted else {
                    throw ConfigFileError(line: number, "repeats the section [\(section)]")
                }
                continue
            }
            let key = try scanner.bareKey()
            scanner.skipSpaces()
            guard scanner.take("=") else { throw ConfigFileError(line: number, "needs '=' after '\(key)'") }
            scanner.skipSpaces()
            let value = try scanner.string(for: key)
            try scanner.expectEnd(after: "value")
            if let earlier = entries.first(where: { $0.section == section && $0.key == key }) {
                throw ConfigFileError(line: number, "sets '\(key)' again (first set on line \(earlier.line))")
            }
            entries.append(Entry(section: section, key: key, value: value, line: number))
        }
    }

    public init(parsing text: String) throws(ConfigFileError) {
        try self.init(parsing: Data(text.utf8))
    }

    /// The value of `key` in `[section]`, or nil.
    public func value(_ key: String, in section: String) -> String? {
        entries.first { $0.section == section && $0.key == key }?.value
    }

    /// Throws for the first key that is not in `known` (section name to its keys); any key
    /// goes in the sections of `named` (whose keys are names the person chose).
    public func checkKeys(_ known: [String: Set<String>], named: Set<String> = []) throws(ConfigFileError) {
        for entry in entries where known[entry.section]?.contains(entry.key) != true && !named.contains(entry.section) {
            let place = entry.section.isEmpty ? "outside any section" : "in [\(entry.section)]"
            let expected =
                known[entry.section].map { "; known keys there: " + $0.sorted().joined(separator: ", ") } ?? ""
            throw ConfigFileError(line: entry.line, "has the unknown key '\(entry.key)' \(place)\(expected)")
        }
    }

    // MARK: - Writing

    /// The text with `[section]` replaced by `lines` (or removed when nil), other lines kept.
    public static func replacingSection(_ section: String, in text: String?, with lines: [String]?) -> String {
        var kept: [String] = []
        var inSection = false
        for raw in (text ?? "").split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("[") {
                inSection = trimmed.dropFirst().prefix { $0 != "]" }.trimmingCharacters(in: .whitespaces) == section
                if inSection { continue }
            }
            if !inSection { kept.append(line) }
        }
        while let last = kept.last, last.trimmingCharacters(in: .whitespaces).isEmpty { kept.removeLast() }
        if let lines {
            if !kept.isEmpty { kept.append("") }
            kept.append("[\(section)]")
            kept += lines
        }
        return kept.isEmpty ? "" : kept.joined(separator: "\n") + "\n"
    }

    /// `text` as a TOML basic string; every control character is escaped, so any text reads
    /// back as itself.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

/// A line of a config file that is not in the subset, or a key nobody reads.
public struct ConfigFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let problem: String

    init(line: Int, _ problem: String) {
        self.line = line
        self.problem = problem
    }

    public var description: String { "line \(line) \(problem)" }
}

/// Reads one line left to right.
private struct LineScanner {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    let number: Int

    init(_ line: String, number: Int) {
        scalars = Array(line.unicodeScalars)
        self.number = number
    }

    var atEnd: Bool { index >= scalars.count }
    var peek: Unicode.Scalar? { atEnd ? nil : scalars[index] }

    mutating func skipSpaces() {
        while let next = peek, next == " " || next == "\t" { index += 1 }
    }

    mutating func take(_ scalar: Unicode.Scalar) -> Bool {
        guard peek == scalar else { return false }
        index += 1
        return true
    }

    /// Spaces, then nothing or a comment, after `what` (a value, a section name).
    mutating func expectEnd(after what: String) throws(ConfigFileError) {
        skipSpaces()
        guard atEnd || peek == "#" else {
            throw ConfigFileError(line: number, "has more text after the \(what): '\(rest)'")
        }
        while let next = peek {
            guard next == "\t" || (next.value >= 0x20 && next.value != 0x7F) else {
                throw ConfigFileError(line: number, "has a control character in its comment")
            }
            index += 1
        }
    }

    private var rest: String {
        // Control characters would garble the terminal the message is shown on.
        var text = String(
            String.UnicodeScalarView(
                scalars[index...].prefix(40).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
        if scalars.count - index > 40 { text += "…" }
        return text
    }

    /// `[name]`, with spaces allowed inside the brackets.
    mutating func sectionHeader() throws(ConfigFileError) -> String {
        _ = take("[")
        if peek == "[" {
            throw ConfigFileError(line: number, "starts an array of tables ([[…]]), which Quire's config does not use")
        }
        skipSpaces()
        let name = try bareKey()
        skipSpaces()
        guard take("]") else { throw ConfigFileError(line: number, "needs ']' to close the section name") }
        try expectEnd(after: "section name")
        return name
    }

    /// Letters, digits, '_' and '-' (TOML's bare keys; quoted and dotted keys are not used).
    mutating func bareKey() throws(ConfigFileError) -> String {
        let start = index
        while let next = peek,
            ("a"..."z").contains(next) || ("A"..."Z").contains(next) || ("0"..."9").contains(next)
                || next == "_" || next == "-"
        {
            index += 1
        }
        guard index > start else {
            let found =
                peek.map { $0.value < 0x20 || $0.value == 0x7F ? "a control character" : "'\($0)'" }
                ?? "the end of the line"
            throw ConfigFileError(line: number, "needs a name (letters, digits, '_', '-'), not \(found)")
        }
        return String(String.UnicodeScalarView(scalars[start..<index]))
    }

    /// A basic ("…", with escapes) or literal ('…') string on one line.
    mutating func string(for key: String) throws(ConfigFileError) -> String {
        if let quote = peek, quote == "'" || quote == "\"", index + 2 < scalars.count,
            scalars[index + 1] == quote, scalars[index + 2] == quote
        {
            throw ConfigFileError(line: number, "uses a multi-line string for '\(key)'; use one line")
        }
        if take("'") {
            var value = String.UnicodeScalarView()
            while let next = peek, next != "'" {
                try checkAllowed(next, key: key)
                value.append(next)
                index += 1
            }
            guard take("'") else { throw ConfigFileError(line: number, "does not close the string of '\(key)'") }
            return String(value)
        }
        guard take("\"") else {
            throw ConfigFileError(line: number, "needs a quoted string as the value of '\(key)'")
        }
        var value = String.UnicodeScalarView()
        while let next = peek {
            index += 1
            switch next {
            case "\"":
                return String(value)
            case "\\":
                value.append(try escape(key: key))
            default:
                try checkAllowed(next, key: key)
                value.append(next)
            }
        }
        throw ConfigFileError(line: number, "does not close the string of '\(key)'")
    }

    private func checkAllowed(_ scalar: Unicode.Scalar, key: String) throws(ConfigFileError) {
        guard scalar == "\t" || (scalar.value >= 0x20 && scalar.value != 0x7F) else {
            throw ConfigFileError(
                line: number, "has a control character in the value of '\(key)'; write it as an escape")
        }
    }

    private mutating func escape(key: String) throws(ConfigFileError) -> Unicode.Scalar {
        guard let letter = peek else { throw ConfigFileError(line: number, "does not close the string of '\(key)'") }
        index += 1
        switch letter {
        case "\"": return "\""
        case "\\": return "\\"
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "b": return "\u{8}"
        case "f": return "\u{C}"
        case "e": return "\u{1B}"
        case "u", "U":
            let count = letter == "u" ? 4 : 8
            guard index + count <= scalars.count else {
                throw ConfigFileError(line: number, "has a short \\\(letter) escape in the value of '\(key)'")
            }
            let digits = String(String.UnicodeScalarView(scalars[index..<index + count]))
            index += count
            guard digits.unicodeScalars.allSatisfy(\.properties.isASCIIHexDigit), let code = UInt32(digits, radix: 16),
                let scalar = Unicode.Scalar(code)
            else { throw ConfigFileError(line: number, "has an invalid \\\(letter) escape in the value of '\(key)'") }
            return scalar
        default:
            throw ConfigFileError(line: number, "has an unknown escape '\\\(letter)' in the value of '\(key)'")
        }
    }
}
