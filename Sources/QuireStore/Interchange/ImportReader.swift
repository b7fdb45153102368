import Foundation
import QuireCore

/// The entries of a JSON or Taskwarrior export, decoded one at a time as the file is read.
///
/// Why one at a time: with `JSONElements` underneath, only the current chunk of the file and
/// the current entry are in memory, so importing a million items takes no more memory than
/// importing ten. Errors name the entry (`entry 3`, or `line 12` in a file of lines) and the
/// field, or the file line and column of a syntax error.
public struct ImportReader {
    public enum Format: Sendable {
        /// An array of items in SPEC.md's shape (what `quire export` writes).
        case json
        /// The output of Taskwarrior's `task export` (an array, or one task per line).
        case taskwarrior
    }

    private var elements: JSONElements
    private let format: Format
    private let timeZone: TimeZone
    /// Of a Taskwarrior export: for each attribute Quire does not keep (`recur`, `wait`,
    /// `depends`, a user-defined one …), how many tasks had it.
    public private(set) var attributesNotKept: [String: Int] = [:]
    /// Of a Taskwarrior export: recurring templates passed over (their pending instances are
    /// imported as tasks).
    public private(set) var recurringTemplatesSkipped = 0

    public init(_ elements: JSONElements, format: Format, timeZone: TimeZone = .current) {
        self.elements = elements
        self.format = format
        self.timeZone = timeZone
    }

    /// The next entry; nil after the last. Taskwarrior's recurring templates are passed over.
    public mutating func next() throws(ImportError) -> ImportEntry? {
        while let element = try elements.next() {
            let shape = elements.shape ?? .array
            if format == .json, shape != .array { throw Self.notAnArray }
            let value = try JSONElements.value(element)
            do throws(ImportError) {
                switch format {
                case .json:
                    guard case .object(let object) = value else { throw ImportError("", "expected an object") }
                    return try JSONImport.entry(object)
                case .taskwarrior:
                    guard case .object(let object) = value else { throw ImportError("", "expected a task object") }
                    guard let entry = try TaskwarriorImport.entry(object, timeZone: timeZone) else {
                        recurringTemplatesSkipped += 1
                        continue
                    }
                    for name in TaskwarriorImport.attributesNotKept(object) { attributesNotKept[name, default: 0] += 1 }
                    return entry
                }
            } catch {
                throw ImportError(element.location(in: shape), error.reason)
            }
        }
        if format == .json, elements.shape == nil { throw Self.notAnArray }
        return nil
    }

    /// Every entry at once, for inputs known to be small (tests, a single pasted item).
    public mutating func all() throws(ImportError) -> [ImportEntry] {
        var entries: [ImportEntry] = []
        while let entry = try next() { entries.append(entry) }
        return entries
    }

    static let notAnArray = ImportError("", "the file must hold a JSON array of items")
}
