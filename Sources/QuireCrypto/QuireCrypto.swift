/// End-to-end encryption for Quire: the keys, and the sealing and MACs of field values, so the
/// sync server keeps an account's data without being able to read it (SPEC, "End-to-end
/// encryption"; issue 29).
///
/// ## Why libsodium, not swift-crypto
///
/// - **Argon2id** (`crypto_pwhash`) is memory-hard in both time and memory and resists GPU and
///   side-channel attacks; swift-crypto offers scrypt (memory-hard, but older and with no
///   side-channel resistance) and PBKDF2 (not memory-hard at all: TaskChampion needs 600,000
///   rounds of it).
/// - **XChaCha20-Poly1305** takes a 192-bit nonce, so a nonce drawn at random for every value
///   never repeats in practice at any scale (2^96 values before a collision is even likely).
///   swift-crypto's ChaCha20-Poly1305 and AES-GCM take 96-bit nonces, safe drawn at random only
///   up to about 2^32 messages per key, which would need a per-value key derived with HKDF.
/// - Keyed BLAKE2b (`crypto_generichash`), `crypto_kdf_derive_from_key` for subkeys,
///   `randombytes_buf`, `sodium_memzero` and constant-time comparison come with it: one
///   audited C library, packaged by Debian (`libsodium-dev`), for every primitive used here.
///
/// ## Keys
///
/// A passphrase never leaves the device. Argon2id turns it and a random 16-byte salt, with the
/// parameters stored in the key ring (about 0.5 s and 64 MiB, see `KeyDerivation.calibrated`),
/// into a key-encryption key (KEK). A random 256-bit **ring key** is wrapped twice: under the
/// passphrase KEK and under the 256-bit **recovery key** (shown once, as text: `RecoveryKey`).
/// Each **data key** (random 256 bits, with a key id) is wrapped under the ring key. So either
/// secret unlocks every data key; changing the passphrase re-wraps the ring key only; rotating
/// adds a data key with the next id, wrapped under the ring key, with no second secret needed
/// (wrapping each data key under the KEK and the recovery key directly would need the recovery
/// key, which is kept on paper, at every rotation). A device keeps only its `DataKeys`, never
/// the ring key, so it cannot open the ring's wrapped keys by itself.
///
/// So that devices learn a rotation's new key without the passphrase, a key added by rotation
/// (ring format 2) is also **chained**: wrapped under a subkey ("QuireChn") of the data key that
/// was current before it, bound to both ids (`"quire.chained-key" 0x00 | format | from id | id`).
/// A device holding key n learns n+1, then n+2, from the ring alone. A lost device would too, as
/// long as its token can fetch the ring: revoke its token before rotating.
///
/// Each secret also has a **key check**: 16 bytes of a subkey of the unwrapping key (KEK or
/// recovery key), compared in constant time before anything is opened. A check that differs
/// means the wrong passphrase (or recovery key); a check that matches while the wrapped key
/// fails to open means the key ring was damaged. The check costs an attacker the same Argon2id
/// run per guess as the wrapped key itself would.
///
/// The key ring is the JSON the server stores for the account (binary values base64url, no
/// padding):
///
/// ```json
/// {
///   "format": 1,
///   "passphrase": {
///     "kdf": {"algorithm": "argon2id13", "opslimit": 5, "memlimit": 67108864},
///     "salt": "<16 bytes>",
///     "check": "<16 bytes>",
///     "wrappedKey": "<24-byte nonce + 32-byte ring key + 16-byte tag>"
///   },
///   "recovery": {"check": "<16 bytes>", "wrappedKey": "<nonce + ring key + tag>"},
///   "currentKey": 2,
///   "keys": [
///     {"id": 1, "wrappedKey": "<nonce + data key + tag>"},
///     {"id": 2, "wrappedKey": "…", "chain": {"from": 1, "wrappedKey": "<nonce + key 2 + tag>"}}
///   ]
/// }
/// ```
///
/// `format` is 1 until the first rotation, then 2 (format 1 has no `chain`): a version that
/// reads only format 1 says "update Quire" rather than rewriting the ring without its chains.
///
/// ## Sealed field values
///
/// A field value (the bytes of its JSON) is sealed under a subkey of the current data key as
/// `v1.<key id>.<base64url(24-byte random nonce + ciphertext + 16-byte tag)>`; a value of n
/// bytes takes 4n/3 + 54 characters or so beyond the key id. The associated data binds it to
/// where it belongs, so a server that moves a ciphertext to another item or field, or relabels
/// its key id, makes it fail to open:
///
/// ```
/// "quire.field" 0x00 | format (1 byte) | key id (4 bytes, big-endian)
///   | item id length (4 bytes, big-endian) | item id (UTF-8) | field name length | field name
/// ```
///
/// ## Value MACs
///
/// For conditional writes the server compares `from` values by MAC, without learning them:
/// `m1.<key id>.<base64url(16-byte keyed BLAKE2b)>` over `"quire.mac" 0x00 | format | key id |
/// item id length | item id | field name length | field name | value`, keyed with a MAC subkey of
/// the data key (`crypto_kdf_derive_from_key`, context "QuireMAC"), so equal values in different
/// items or fields have different MACs. The sealing subkey has its own context ("QuireFld"):
/// one data key, two independent keys.
///
/// ## Attached files
///
/// Each file has its own random key, wrapped under the current data key (`FileCipher`) and
/// carried in the file's reference, a sealed field like any other. Its chunks are sealed one by
/// one with XChaCha20-Poly1305 and a synthetic nonce, bound to their index and the last-chunk
/// flag, and filed under keyed BLAKE2b addresses (`FileKey`, which says why not secretstream).
///
/// Secrets live in buffers of their own that are zeroed when released (`SecretBytes`); no
/// description or error message ever contains one.
public enum QuireCrypto {
    /// The format of sealed values and MACs this version reads and writes (key rings have
    /// their own, `KeyRing.newestFormat`).
    public static let formatVersion: UInt8 = 1
}
