import Foundation
import QuireCore
import QuireCrypto
import Testing

@testable import QuireSync

/// The keys new references get in an encrypted account, and the sealer that uses them: one key
/// per content, reused within the account, so a file attached twice has one set of addresses.
@Suite struct EncryptingChunkSealerTests {
    let keys: DataKeys
    let otherAccount: DataKeys
    let file = AttachedFile(
        name: "tickets.pdf", size: 5, mediaType: "application/pdf", hash: String(repeating: "ab", count: 32))

    init() throws {
        keys = try KeyRing.create(passphrase: "a passphrase", parameters: .minimum).unlocked.dataKeys
        otherAccount = try KeyRing.create(passphrase: "a passphrase", parameters: .minimum).unlocked.dataKeys
    }

    @Test func aPlainAccountsFilesStayAsTheyAre() {
        #expect(AttachmentKeys.keyed([file], keys: nil, known: []) == [file])
        #expect(PlaintextChunkSealer().carries(file))
        #expect(PlaintextChunkSealer().key(for: file, known: []) == nil)
    }

    @Test func contentTheAccountHoldsKeepsItsKeyAndNewContentGetsItsOwn() throws {
        let first = try #require(AttachmentKeys.keyed([file], keys: keys, known: []).first)
        let key = try #require(first.wrappedKey)
        var renamed = file
        renamed.name = "copy.pdf"
        #expect(AttachmentKeys.keyed([renamed], keys: keys, known: [first]).first?.wrappedKey == key)
        #expect(AttachmentKeys.keyed([file], keys: keys, known: []).first?.wrappedKey != key, "a new random key")
        // A key that does not open here (another account's) is not taken.
        let foreign = try #require(AttachmentKeys.keyed([file], keys: otherAccount, known: []).first)
        #expect(AttachmentKeys.keyed([file], keys: keys, known: [foreign]).first?.wrappedKey != foreign.wrappedKey)

        let sealer = EncryptingChunkSealer(keys: keys)
        #expect(sealer.carries(first) && !sealer.carries(file))
        #expect(sealer.key(for: file, known: [first]) == key)
        #expect(sealer.key(for: first, known: []) == nil, "a keyed reference keeps its key")
        let chunk = Data("hello".utf8)
        let sealedOnce = try sealer.seal(chunk, index: 0, isLast: true, of: first)
        let sealedAgain = try sealer.seal(chunk, index: 0, isLast: true, of: renamed.keyed(key))
        #expect(sealedOnce == sealedAgain)
        #expect(try sealer.address(ofSealed: sealedOnce, of: first) == sealer.address(ofSealed: sealedAgain, of: first))
        #expect(try sealer.fileAddress(of: first) == sealer.fileAddress(of: renamed.keyed(key)))
        #expect(try sealer.open(sealedOnce, index: 0, isLast: true, of: first) == chunk)
        #expect(throws: FileCipherError.self) {
            try EncryptingChunkSealer(keys: otherAccount).open(sealedOnce, index: 0, isLast: true, of: first)
        }
    }
}

extension AttachedFile {
    fileprivate func keyed(_ key: String) -> AttachedFile {
        var copy = self
        copy.wrappedKey = key
        return copy
    }
}
