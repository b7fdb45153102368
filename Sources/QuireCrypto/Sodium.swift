import CSodium

/// The libsodium calls QuireCrypto makes, in Swift terms; every one starts with `ready()`.
enum Sodium {
    /// `sodium_init` runs once per process (a static `let` is initialised once, thread-safely);
    /// it picks the fastest implementations and seeds the generator. It can fail only when the
    /// system has no random source, and then nothing here could be safe.
    private static let initialized: Bool = sodium_init() >= 0

    static func ready() {
        precondition(initialized, "libsodium could not be initialised (no system random source)")
    }

    static let aeadKeyBytes = Int(crypto_aead_xchacha20poly1305_ietf_keybytes())
    static let aeadNonceBytes = Int(crypto_aead_xchacha20poly1305_ietf_npubbytes())
    static let aeadTagBytes = Int(crypto_aead_xchacha20poly1305_ietf_abytes())
    /// What sealing adds to a plaintext: the nonce in front, the tag behind.
    static var aeadOverhead: Int { aeadNonceBytes + aeadTagBytes }

    // MARK: - XChaCha20-Poly1305

    /// `nonce + ciphertext + tag` of `plaintext` under `key`, the nonce drawn from `random`.
    static func seal(
        _ plaintext: UnsafeBufferPointer<UInt8>, associatedData: [UInt8], key: SecretBytes,
        random: some RandomSource
    ) -> [UInt8] {
        seal(plaintext, associatedData: associatedData, key: key) { random.fill($0) }
    }

    /// `nonce + ciphertext + tag` of `plaintext` under `key`, with a nonce the caller chose
    /// (one that never repeats for another plaintext under this key).
    static func seal(
        _ plaintext: UnsafeBufferPointer<UInt8>, associatedData: [UInt8], key: SecretBytes, nonce chosen: [UInt8]
    ) -> [UInt8] {
        precondition(chosen.count == aeadNonceBytes, "an XChaCha20-Poly1305 nonce is \(aeadNonceBytes) bytes")
        return seal(plaintext, associatedData: associatedData, key: key) { _ = $0.initialize(fromContentsOf: chosen) }
    }

    private static func seal(
        _ plaintext: UnsafeBufferPointer<UInt8>, associatedData: [UInt8], key: SecretBytes,
        writeNonce: (UnsafeMutableBufferPointer<UInt8>) -> Void
    ) -> [UInt8] {
        ready()
        var box = [UInt8](repeating: 0, count: plaintext.count + aeadOverhead)
        box.withUnsafeMutableBufferPointer { box in
            let nonce = UnsafeMutableBufferPointer(rebasing: box[0..<aeadNonceBytes])
            writeNonce(nonce)
            let cipher = box.baseAddress! + aeadNonceBytes
            associatedData.withUnsafeBufferPointer { ad in
                key.withUnsafeBytes { key in
                    _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
                        cipher, nil, plaintext.baseAddress, UInt64(plaintext.count), ad.baseAddress, UInt64(ad.count),
                        nil, nonce.baseAddress!, key.baseAddress!)
                }
            }
        }
        return box
    }

    /// Opens `box` (as `seal` made it) into `output`, which holds exactly the plaintext's length;
    /// false when the tag does not verify (wrong key, altered bytes or other associated data).
    static func open(
        _ box: UnsafeBufferPointer<UInt8>, associatedData: [UInt8], key: SecretBytes,
        into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Bool {
        associatedData.withUnsafeBufferPointer { open(box, associatedData: $0, key: key, into: output) }
    }

    /// `open` with associated data the caller built in memory of its own.
    static func open(
        _ box: UnsafeBufferPointer<UInt8>, associatedData: UnsafeBufferPointer<UInt8>, key: SecretBytes,
        into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Bool {
        ready()
        guard box.count >= aeadOverhead, output.count == box.count - aeadOverhead else { return false }
        let status = key.withUnsafeBytes { key in
            crypto_aead_xchacha20poly1305_ietf_decrypt(
                output.baseAddress, nil, nil, box.baseAddress! + aeadNonceBytes, UInt64(box.count - aeadNonceBytes),
                associatedData.baseAddress, UInt64(associatedData.count), box.baseAddress!, key.baseAddress!)
        }
        return status == 0
    }

    /// A 32-byte key sealed in `box`, kept in a wiped buffer; nil when it fails to open.
    static func openKey(_ box: [UInt8], associatedData: [UInt8], key: SecretBytes) -> SecretBytes? {
        guard box.count == aeadOverhead + aeadKeyBytes else { return nil }
        struct Refused: Error {}
        do {
            return try SecretBytes(count: aeadKeyBytes) { (output) throws(Refused) in
                let opened = box.withUnsafeBufferPointer {
                    open($0, associatedData: associatedData, key: key, into: output)
                }
                if !opened { throw Refused() }
            }
        } catch {
            return nil
        }
    }

    // MARK: - Subkeys and BLAKE2b

    /// Subkey `id` of `key` for the purpose named by `context` (exactly 8 ASCII characters), by
    /// `crypto_kdf_derive_from_key` (BLAKE2b): keys for different purposes never coincide.
    static func subkey(of key: SecretBytes, id: UInt64, context: StaticString, count: Int = 32) -> SecretBytes {
        ready()
        precondition(context.utf8CodeUnitCount == Int(crypto_kdf_CONTEXTBYTES), "a KDF context is 8 bytes")
        return SecretBytes(count: count) { output in
            key.withUnsafeBytes { key in
                context.utf8Start.withMemoryRebound(to: CChar.self, capacity: 8) { context in
                    _ = crypto_kdf_derive_from_key(output.baseAddress!, output.count, id, context, key.baseAddress!)
                }
            }
        }
    }

    /// BLAKE2b of `message`, `count` bytes (16 to 64), keyed with `key`.
    static func keyedHash(_ message: [UInt8], key: SecretBytes, count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { digest, written in
            message.withUnsafeBufferPointer { keyedHash($0, key: key, into: digest) }
            written = count
        }
    }

    /// BLAKE2b of `message` keyed with `key`, as many bytes as `digest` holds (16 to 64),
    /// written there.
    static func keyedHash(
        _ message: UnsafeBufferPointer<UInt8>, key: SecretBytes, into digest: UnsafeMutableBufferPointer<UInt8>
    ) {
        ready()
        key.withUnsafeBytes { key in
            _ = crypto_generichash(
                digest.baseAddress!, digest.count, message.baseAddress, UInt64(message.count), key.baseAddress,
                key.count)
        }
    }

    /// BLAKE2b of `prefix` followed by `body`, `count` bytes (16 to 64), keyed with `key`: in
    /// one pass, without joining them (the body is a chunk of up to a few MiB).
    static func keyedHash(
        _ prefix: [UInt8], then body: UnsafeRawBufferPointer, key: SecretBytes, count: Int
    ) -> [UInt8] {
        ready()
        var digest = [UInt8](repeating: 0, count: count)
        // The state is 64-byte aligned in C, which Swift imports as an opaque type: it lives in
        // memory allocated here, wiped after (it holds the key's traces).
        let size = crypto_generichash_statebytes()
        let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        defer {
            sodium_memzero(memory, size)
            memory.deallocate()
        }
        let state = OpaquePointer(memory)
        key.withUnsafeBytes { key in
            _ = crypto_generichash_init(state, key.baseAddress, key.count, count)
        }
        prefix.withUnsafeBufferPointer { _ = crypto_generichash_update(state, $0.baseAddress, UInt64($0.count)) }
        if let start = body.baseAddress {
            _ = crypto_generichash_update(state, start.assumingMemoryBound(to: UInt8.self), UInt64(body.count))
        }
        _ = crypto_generichash_final(state, &digest, count)
        return digest
    }

    /// Unkeyed BLAKE2b of `message`, `count` bytes (16 to 64).
    static func hash(_ message: [UInt8], count: Int) -> [UInt8] {
        ready()
        var digest = [UInt8](repeating: 0, count: count)
        message.withUnsafeBufferPointer {
            _ = crypto_generichash(&digest, count, $0.baseAddress, UInt64($0.count), nil, 0)
        }
        return digest
    }

    /// Whether two byte strings are equal, in time that does not depend on where they differ
    /// (`sodium_memcmp`): a MAC compared this way tells nothing of the expected one.
    static func equalInConstantTime(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        first.withUnsafeBufferPointer { first in
            second.withUnsafeBufferPointer { equalInConstantTime(first, $0) }
        }
    }

    /// `equalInConstantTime` of bytes in memory the caller holds.
    static func equalInConstantTime(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) -> Bool {
        guard first.count == second.count else { return false }
        return sodium_memcmp(first.baseAddress, second.baseAddress, first.count) == 0
    }

    // MARK: - Text

    /// `bytes` as lowercase hex (`sodium_bin2hex`, in constant time).
    static func hex(_ bytes: [UInt8]) -> String {
        ready()
        let length = bytes.count * 2 + 1
        return String(unsafeUninitializedCapacity: length) { text in
            text.withMemoryRebound(to: CChar.self) { text in
                bytes.withUnsafeBufferPointer {
                    _ = sodium_bin2hex(text.baseAddress!, length, $0.baseAddress, $0.count)
                }
            }
            return length - 1  // without the terminating zero
        }
    }

    // MARK: - base64url

    private static let base64Variant = Int32(sodium_base64_VARIANT_URLSAFE_NO_PADDING)

    /// `bytes` as base64url without padding: safe in JSON, URLs and the dotted sealed form.
    /// Written straight into the string's storage: a pull opens every field of every item.
    static func base64URL(_ bytes: [UInt8]) -> String {
        ready()
        let length = sodium_base64_encoded_len(bytes.count, base64Variant)
        return String(unsafeUninitializedCapacity: length) { text in
            text.withMemoryRebound(to: CChar.self) { text in
                bytes.withUnsafeBufferPointer {
                    _ = sodium_bin2base64(text.baseAddress!, length, $0.baseAddress, $0.count, base64Variant)
                }
            }
            return length - 1  // without the terminating zero
        }
    }

    /// The bytes of base64url `text` (no padding, nothing else in it); nil when it is not that.
    static func bytes(base64URL text: Substring) -> [UInt8]? {
        var text = text
        return text.withUTF8 { bytes(base64URL: $0) }
    }

    /// The bytes of base64url text given as its UTF-8; nil when it is not base64url (libsodium
    /// also refuses a last character whose unused bits are not zero, so one value has one text).
    static func bytes(base64URL utf8: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        ready()
        guard !utf8.isEmpty else { return [] }
        var bytes = [UInt8](repeating: 0, count: utf8.count * 3 / 4 + 1)
        var count = 0
        let status = utf8.withMemoryRebound(to: CChar.self) { text in
            sodium_base642bin(&bytes, bytes.count, text.baseAddress, text.count, nil, &count, nil, base64Variant)
        }
        guard status == 0 else { return nil }
        // Shortened in place, not copied: the bytes may be a key, which the caller wipes.
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}
