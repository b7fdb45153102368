import Foundation
import Testing

@testable import QuireCrypto

/// An attached file's chunks open only as the file they were sealed for, in their place, under
/// their file's key; and their addresses tell the server nothing across accounts.
@Suite struct FileCipherTests {
    let keys = TestKeys.dataKeys([1, 2])
    let hash = String(repeating: "ab", count: 32)
    let chunks = (0..<3).map { index in Data((0..<100).map { UInt8(truncatingIfNeeded: $0 * 7 + index) }) }

    private func sealed(_ key: FileKey) -> [Data] {
        chunks.indices.map { key.seal(chunks[$0], index: $0, isLast: $0 == chunks.count - 1) }
    }

    @Test func roundTripsThroughTheWrappedKey() throws {
        let key = FileCipher.newKey(forContent: hash, keys: keys)
        #expect(key.wrapped.hasPrefix("f1.2."))
        let boxes = sealed(key)
        let reopened = try FileCipher.key(wrapped: key.wrapped, forContent: hash, keys: keys)
        for index in boxes.indices {
            #expect(boxes[index].count == chunks[index].count + 40)
            #expect(try reopened.open(boxes[index], index: index, isLast: index == 2) == chunks[index])
        }
        let empty = key.seal(Data(), index: 0, isLast: true)
        #expect(try reopened.open(empty, index: 0, isLast: true) == Data())
    }

    @Test func sealingIsTheSameEachTimeSoAResumedUploadSendsTheSameAddress() throws {
        let key = FileCipher.newKey(forContent: hash, keys: keys)
        let again = try FileCipher.key(wrapped: key.wrapped, forContent: hash, keys: keys)
        #expect(sealed(key) == sealed(again))
        #expect(sealed(key).map(key.address(ofSealed:)) == sealed(again).map(again.address(ofSealed:)))
        #expect(key.fileAddress == again.fileAddress)
        // The plaintext is nowhere in the sealed bytes.
        #expect(sealed(key)[0].range(of: chunks[0].prefix(16)) == nil)
    }

    @Test func aFlippedByteAnywhereFailsToOpen() throws {
        let key = FileCipher.newKey(forContent: hash, keys: keys)
        var box = sealed(key)[1]
        for index in box.indices {
            box[index] ^= 0x01
            #expect(throws: FileCipherError.chunkFailedToOpen(index: 1)) {
                try key.open(box, index: 1, isLast: false)
            }
            box[index] ^= 0x01
        }
        #expect(throws: FileCipherError.chunkFailedToOpen(index: 1)) {
            try key.open(box.prefix(39), index: 1, isLast: false)
        }
    }

    @Test func reorderedTruncatedExtendedOrSwappedChunksFailToOpen() {
        let key = FileCipher.newKey(forContent: hash, keys: keys)
        let boxes = sealed(key)
        // Reordered: chunk 0 served in chunk 1's place.
        #expect(throws: FileCipherError.chunkFailedToOpen(index: 1)) { try key.open(boxes[0], index: 1, isLast: false) }
        // Truncated: the file cut after chunk 1, which was not sealed as the last.
        #expect(throws: FileCipherError.chunkFailedToOpen(index: 1)) { try key.open(boxes[1], index: 1, isLast: true) }
        // Extended: the last chunk followed by more.
        #expect(throws: FileCipherError.chunkFailedToOpen(index: 2)) { try key.open(boxes[2], index: 2, isLast: false) }
        // Swapped: another file's chunk 1, in its place, under its own key.
        let other = FileCipher.newKey(forContent: hash, keys: keys)
        let foreign = other.seal(chunks[1], index: 1, isLast: false)
        #expect(throws: FileCipherError.chunkFailedToOpen(index: 1)) { try key.open(foreign, index: 1, isLast: false) }
    }

    @Test func aWrappedKeyOpensOnlyForItsContentUnderItsAccountsKeys() {
        let key = FileCipher.newKey(forContent: hash, keys: keys)
        let otherContent = String(repeating: "cd", count: 32)
        #expect(throws: FileCipherError.keyFailedToOpen(keyID: 2)) {
            try FileCipher.key(wrapped: key.wrapped, forContent: otherContent, keys: keys)
        }
        // Another account with a key of the same id.
        #expect(throws: FileCipherError.keyFailedToOpen(keyID: 2)) {
            try FileCipher.key(wrapped: key.wrapped, forContent: hash, keys: TestKeys.dataKeys([2], first: 50))
        }
        #expect(throws: FileCipherError.unknownKeyID(2)) {
            try FileCipher.key(wrapped: key.wrapped, forContent: hash, keys: TestKeys.dataKeys([1]))
        }
        #expect(throws: FileCipherError.malformedKey) { try FileCipher.key(wrapped: "-", forContent: hash, keys: keys) }
        #expect(throws: FileCipherError.unsupportedFormatVersion(9)) {
            try FileCipher.key(wrapped: "f9" + key.wrapped.dropFirst(2), forContent: hash, keys: keys)
        }
    }

    @Test func addressesDifferBetweenAccountsEvenForTheSameSealedBytes() throws {
        // The same random draws on two accounts give the same file key and the same sealed
        // chunks: only the account's data key tells their addresses apart.
        let mine = FileCipher.newKey(forContent: hash, keys: keys, random: FixedRandom(seed: 7))
        let theirs = FileCipher.newKey(
            forContent: hash, keys: TestKeys.dataKeys([1, 2], first: 50), random: FixedRandom(seed: 7))
        #expect(sealed(mine) == sealed(theirs))
        for box in sealed(mine) {
            #expect(mine.address(ofSealed: box) != theirs.address(ofSealed: box))
            #expect(mine.address(ofSealed: box).count == 64)
        }
        #expect(mine.fileAddress != theirs.fileAddress)
        // Nor is an address the plain SHA-256 a server could compare with a known file's.
        #expect(!sealed(mine).map(mine.address(ofSealed:)).contains(mine.fileAddress))
    }

    @Test func twoFilesWithTheirOwnKeysHaveTheirOwnAddresses() {
        let first = FileCipher.newKey(forContent: hash, keys: keys)
        let second = FileCipher.newKey(forContent: hash, keys: keys)
        #expect(first.wrapped != second.wrapped)
        #expect(first.fileAddress != second.fileAddress)
        #expect(first.address(ofSealed: sealed(first)[0]) != second.address(ofSealed: sealed(second)[0]))
    }

    @Test func errorsSayWhatHappened() {
        #expect(FileCipherError.chunkFailedToOpen(index: 2).description.contains("chunk 3 was altered, reordered"))
        #expect(FileCipherError.chunkFailedToOpen(index: 0).description.contains("nothing was saved"))
    }
}
