import Foundation
import QuireCore
import Testing

@testable import QuireStore

/// The import reads its file a chunk at a time; how the file happens to be cut into chunks must
/// never change what is read or where an error is said to be.
@Suite struct JSONElementsTests {
    static let array = Data(
        """
        [
          {"title": "brackets ] and } in \\"quotes\\"", "tags": ["a", "b]"]},
          {"title": "é 😀 \\u00e9", "body": "line\\nline"} ,
          [1, [2, {"x": "}"}]], 7, "text", true, null
        ]

        """.utf8)

    /// The elements read when the source hands out `size` bytes at a time.
    static func elements(of data: Data, chunk size: Int) throws(ImportError) -> [JSONElements.Element] {
        var offset = 0
        let bytes = [UInt8](data)
        var reader = JSONElements {
            defer { offset += size }
            return offset < bytes.count ? Array(bytes[offset..<min(bytes.count, offset + size)]) : nil
        }
        var elements: [JSONElements.Element] = []
        while let element = try reader.next() { elements.append(element) }
        return elements
    }

    @Test func everyChunkSizeReadsTheSameElementsAtTheSamePlaces() throws {
        let whole = try Self.elements(of: Self.array, chunk: Self.array.count)
        #expect(whole.count == 7)
        #expect(whole.map { "\($0.line):\($0.column)" } == ["2:3", "3:3", "4:3", "4:25", "4:28", "4:36", "4:42"])
        for size in 1...13 {
            let chunked = try Self.elements(of: Self.array, chunk: size)
            #expect(chunked.map(\.bytes) == whole.map(\.bytes), "chunks of \(size)")
            #expect(chunked.map(\.line) == whole.map(\.line) && chunked.map(\.column) == whole.map(\.column))
        }
        let first = try JSONElements.value(whole[0])
        #expect(
            first
                == .object([
                    "title": .string("brackets ] and } in \"quotes\""), "tags": .array([.string("a"), .string("b]")]),
                ]))
        #expect(
            try JSONElements.value(whole[1]) == .object(["title": .string("é 😀 é"), "body": .string("line\nline")]))
    }

    @Test(arguments: [
        ("[\n  {\"title\": \"ok\"},\n  {\"title\": oops}\n]", "line 3, column 13: not valid JSON"),
        ("[{\"title\": \"ok\"} {\"title\": \"no comma\"}]", "line 1, column 18: not valid JSON"),
        ("[{\"title\": \"ok\"}", "line 1, column 17: the JSON array is not closed"),
        ("[{\"title\": \"never closed\"", "line 1, column 2: not valid JSON (the value never ends)"),
        ("[{\"title\": \"ok\"}] trailing", "line 1, column 19: not valid JSON"),
    ])
    func errorsArePlacedInTheFileWhateverTheChunks(_ text: String, _ message: String) {
        for size in [1, 2, 5, 4096] {
            do throws(ImportError) {
                let elements = try Self.elements(of: Data(text.utf8), chunk: size)
                for element in elements { _ = try JSONElements.value(element) }
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.description == message, "chunks of \(size)")
            }
        }
    }

    @Test func linesOfValuesWithOrWithoutCommas() throws {
        let text = "{\"a\": 1},\n\n  {\"a\": 2}\r\n{\"a\": 3}"
        var reader = JSONElements(data: Data(text.utf8))
        var lines: [Int] = []
        while let element = try reader.next() { lines.append(element.line) }
        #expect(reader.shape == .lines && lines == [1, 3, 4])
        var empty = JSONElements(data: Data("  \n".utf8))
        #expect(try empty.next() == nil && empty.shape == nil)
    }
}

@Suite struct StreamingImportTests {
    /// Entries handed out one by one, as a file is read: an error after several batches were
    /// written still leaves the store exactly as it was.
    @Test func anErrorAfterManyBatchesImportsNothing() throws {
        let store = try StoreFixture.make()
        _ = try store.create(NewItem(title: "before"))
        let before = try StoreFixture.count(store, "SELECT count(*) FROM item")
        let versions = try StoreFixture.count(store, "SELECT count(*) FROM itemVersion")
        var handedOut = 0
        do {
            _ = try store.importItems { () throws(ImportError) -> ImportEntry? in
                handedOut += 1
                if handedOut == ImportBatch.maximumCount * 3 + 5 { throw ImportError("entry \(handedOut)", "bad") }
                return ImportEntry(title: "item \(handedOut)")
            }
            Issue.record("the import went through")
        } catch let error as ImportError {
            #expect(error.description == "entry 3005: bad")
        }
        #expect(try StoreFixture.count(store, "SELECT count(*) FROM item") == before)
        #expect(try StoreFixture.count(store, "SELECT count(*) FROM itemVersion") == versions)
        #expect(try StoreFixture.count(store, "SELECT count(*) FROM itemSearch WHERE itemSearch MATCH 'item'") == 0)
    }

    /// An id seen again: in the same group of entries, or in a later group while the item it
    /// created still waits in a batch that then fills up and is written mid-group. Each is one
    /// item, created once and then updated, never a second row.
    @Test func anIDSeenAgainUpdatesWhatItsFirstEntryCreated() throws {
        let store = try StoreFixture.make()
        let existing = try store.create(NewItem(title: "already here"))
        func id(_ number: Int) -> String { String(format: "0193a9d2-0000-7000-8000-%012x", number) }
        let group = AppDatabase.importGroupSize
        var entries: [ImportEntry] = [
            // The first group updates one item and creates the rest, so its last creates are
            // still in the batch when the next group starts.
            ImportEntry(id: existing.id, title: "changed by the import")
        ]
        for number in 1..<group { entries.append(ImportEntry(id: id(number), title: "first \(number)")) }
        // The next group fills the batch, which is written; then it names an id of the first
        // group that was in the batch when this group started, and one of its own.
        entries.append(ImportEntry(id: id(group), title: "fills the batch"))
        entries.append(ImportEntry(id: id(group - 1), title: "second of the first group's last"))
        entries.append(ImportEntry(id: id(group), title: "second of this group's first"))
        #expect(ImportBatch.maximumCount == group, "the case needs a batch that fills as the group does")
        var remaining = entries.makeIterator()
        let summary = try store.importItems { () throws(ImportError) in remaining.next() }
        #expect(summary.created == group)
        #expect(summary.updated == 3)
        #expect(try StoreFixture.count(store, "SELECT count(*) FROM item") == group + 1)
        #expect(try store.item(id(group - 1))?.title == "second of the first group's last")
        #expect(try store.item(id(group))?.title == "second of this group's first")
        #expect(try store.item(existing.id)?.title == "changed by the import")
    }

    /// Entries are read ahead a group at a time, but errors are still told in file order: an
    /// entry the store refuses is reported, not an unreadable one after it.
    @Test func theFirstBadEntryIsTheOneReported() throws {
        let store = try StoreFixture.make()
        var handedOut = 0
        do {
            _ = try store.importItems { () throws(ImportError) -> ImportEntry? in
                handedOut += 1
                switch handedOut {
                case 1: return ImportEntry(title: "fine")
                case 2: return ImportEntry(id: "not-a-uuid", title: "refused by the store")
                default: throw ImportError("entry \(handedOut)", "unreadable")
                }
            }
            Issue.record("the import went through")
        } catch let error as StoreError {
            #expect(error == .invalidPrefix("not-a-uuid"))
        } catch {
            Issue.record("reported \(error), not the refused entry")
        }
        #expect(try StoreFixture.count(store, "SELECT count(*) FROM item") == 0)
    }

    @Test func aFileReadInPiecesImportsEveryEntryOnce() throws {
        let store = try StoreFixture.make()
        var text = "["
        for index in 0..<2_500 { text += (index == 0 ? "" : ",") + "{\"title\": \"streamed \(index)\"}" }
        text += "]"
        var reader = ImportReader(
            JSONElements(read: Self.pieces(of: Data(text.utf8), size: 777)), format: .json)
        let summary = try store.importItems { () throws(ImportError) in try reader.next() }
        #expect(summary.created == 2_500)
        #expect(try StoreFixture.count(store, "SELECT count(DISTINCT title) FROM item") == 2_500)
    }

    static func pieces(of data: Data, size: Int) -> () throws -> [UInt8]? {
        var offset = 0
        return {
            defer { offset += size }
            return offset < data.count ? [UInt8](data[offset..<min(data.count, offset + size)]) : nil
        }
    }
}
