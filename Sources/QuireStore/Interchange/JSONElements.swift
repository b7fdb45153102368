import Foundation
import QuireCore

/// The top-level values of a JSON array, or of one JSON value per line (older `task export`),
/// read from a source a chunk at a time and handed out one by one.
///
/// Why: an import must not hold the whole file, nor every decoded entry, at once; a million
/// items would be gigabytes. Only the current chunk and the current element are in memory, so
/// memory stays flat whatever the file's size. Each element is decoded on its own
/// (`object(_:)`); errors say where in the file, as line and column.
public struct JSONElements {
    /// How the file holds its values.
    public enum Shape: Sendable {
        /// `[ v, v, … ]`
        case array
        /// One value per line, as `task export` of Taskwarrior before 2.6 prints them.
        case lines
    }

    /// One top-level value: its bytes, its place in the array (1-based) and where it starts.
    public struct Element {
        public var bytes: [UInt8]
        public var index: Int
        public var line: Int
        public var column: Int

        /// `entry 3` in an array, `line 12` in a file of lines.
        public func location(in shape: Shape) -> String {
            shape == .array ? "entry \(index)" : "line \(line)"
        }
    }

    private let read: () throws -> [UInt8]?
    private var buffer: [UInt8] = []
    private var position = 0
    private var exhausted = false
    private var line = 1
    private var column = 1
    private var count = 0
    private var finished = false
    /// Known once the first byte that is not a space has been read.
    public private(set) var shape: Shape?

    /// - Parameter read: the next chunk of the source, nil (or empty) at its end.
    public init(read: @escaping () throws -> [UInt8]?) {
        self.read = read
    }

    /// Reads a file 1 MiB at a time.
    public init(file: FileHandle) {
        self.init { try file.read(upToCount: 1 << 20).map { [UInt8]($0) } }
    }

    /// Reads bytes already in memory (tests, small inputs).
    public init(data: Data) {
        var rest: Data? = data
        self.init {
            defer { rest = nil }
            return rest.map { [UInt8]($0) }
        }
    }

    /// The next value; nil after the last. Throws when the file is not a JSON array (or lines
    /// of JSON values), naming where it stops being one.
    public mutating func next() throws(ImportError) -> Element? {
        guard !finished else { return nil }
        if shape == nil {
            try skipSpaces()
            guard let first = try peek() else {
                finished = true
                return nil
            }
            if first == UInt8(ascii: "[") {
                try advance()
                shape = .array
            } else {
                shape = .lines
            }
        }
        if shape == .lines {
            while let byte = try peek(), Self.isSpace(byte) || byte == UInt8(ascii: ",") { try advance() }
            guard try peek() != nil else {
                finished = true
                return nil
            }
            return try element()
        }
        try skipSpaces()
        guard let byte = try peek() else { throw problem("the JSON array is not closed") }
        if byte == UInt8(ascii: "]") {
            try advance()
            try skipSpaces()
            if try peek() != nil { throw problem("not valid JSON") }
            finished = true
            return nil
        }
        if count > 0 {
            guard byte == UInt8(ascii: ",") else { throw problem("not valid JSON") }
            try advance()
            try skipSpaces()
        }
        return try element()
    }

    /// Decodes one element; a syntax error is placed in the file, not in the element.
    ///
    /// `JSONValueReader` reads nearly every element; what it leaves (a syntax error above all)
    /// goes to `JSONSerialization`, which decodes it the same way or says where it breaks.
    static func value(_ element: Element) throws(ImportError) -> JSONValue {
        if let value = element.bytes.withUnsafeBufferPointer(JSONValueReader.value(of:)) { return value }
        let data = Data(element.bytes)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            var place = "line \(element.line), column \(element.column)"
            if case let inner = JSONErrors.location(of: error, in: data), !inner.isEmpty,
                let (line, column) = Self.lineAndColumn(inner)
            {
                place =
                    line == 1
                    ? "line \(element.line), column \(element.column + column - 1)"
                    : "line \(element.line + line - 1), column \(column)"
            }
            throw ImportError(place, "not valid JSON")
        }
        guard let value = JSONValue(foundation: object) else {
            throw ImportError("line \(element.line), column \(element.column)", "not valid JSON")
        }
        return value
    }

    // MARK: - Scanning

    /// One value from here: an object or array (to its matching close, strings respected), or
    /// a scalar up to the next comma, bracket or space.
    ///
    /// Scans the chunk in memory in one tight loop and copies the value's bytes in runs: every
    /// byte of the file passes through here, so a call per byte would be most of an import's
    /// reading time.
    private mutating func element() throws(ImportError) -> Element {
        let startLine = line
        let startColumn = column
        var bytes: [UInt8] = []
        var depth = 0
        var inString = false
        var escaped = false
        var complete = false
        while !complete, try peek() != nil {
            let start = position
            var index = position
            var line = self.line
            var column = self.column
            buffer.withUnsafeBufferPointer { chunk in
                scan: while index < chunk.count {
                    let byte = chunk[index]
                    if inString {
                        if escaped {
                            escaped = false
                        } else if byte == 0x5C {  // backslash
                            escaped = true
                        } else if byte == 0x22 {  // quote
                            inString = false
                        }
                    } else {
                        switch byte {
                        case 0x22:
                            inString = true
                        case 0x7B, 0x5B:  // { [
                            depth += 1
                        case 0x7D, 0x5D:  // } ]
                            if depth == 0 {  // the array's own close, after a scalar
                                complete = true
                                break scan
                            }
                            depth -= 1
                            if depth == 0 { complete = true }
                        case 0x2C, 0x20, 0x0A, 0x0D, 0x09:  // a comma or a space ends a scalar
                            if depth == 0 {
                                complete = true
                                break scan
                            }
                        default:
                            break
                        }
                    }
                    index += 1
                    Self.move(past: byte, line: &line, column: &column)
                    if complete { break scan }
                }
            }
            bytes.append(contentsOf: buffer[start..<index])
            position = index
            self.line = line
            self.column = column
        }
        if inString || depth > 0 {
            throw ImportError("line \(startLine), column \(startColumn)", "not valid JSON (the value never ends)")
        }
        count += 1
        return Element(bytes: bytes, index: count, line: startLine, column: startColumn)
    }

    private mutating func skipSpaces() throws(ImportError) {
        while let byte = try peek(), Self.isSpace(byte) { try advance() }
    }

    private mutating func peek() throws(ImportError) -> UInt8? {
        if position >= buffer.count {
            guard !exhausted else { return nil }
            buffer.removeAll(keepingCapacity: true)
            position = 0
            do {
                if let chunk = try read(), !chunk.isEmpty { buffer = chunk } else { exhausted = true }
            } catch {
                throw ImportError("", "cannot read the file: \(error.localizedDescription)")
            }
            guard position < buffer.count else { return nil }
        }
        return buffer[position]
    }

    private mutating func advance() throws(ImportError) {
        guard try peek() != nil else { return }
        Self.move(past: buffer[position], line: &line, column: &column)
        position += 1
    }

    /// Where the next byte is once `byte` is read: a line feed starts a line, and a column is
    /// a character (a UTF-8 continuation byte is not a new one).
    @inline(__always)
    private static func move(past byte: UInt8, line: inout Int, column: inout Int) {
        if byte == 10 {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    private func problem(_ reason: String) -> ImportError {
        ImportError("line \(line), column \(column)", reason)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 32 || byte == 10 || byte == 13 || byte == 9
    }

    /// `line 2, column 7` → (2, 7).
    private static func lineAndColumn(_ text: String) -> (Int, Int)? {
        let numbers = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }
}
