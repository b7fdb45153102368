import CSodium

/// The passphrase's key-encryption key, by Argon2id: memory-hard, so each guess of an attacker
/// who holds the key ring costs the same time and memory as an unlock does on the device.
public enum KeyDerivation {
    public static let saltBytes = Int(crypto_pwhash_argon2id_saltbytes())

    /// The memory the calibration keeps fixed: 64 MiB, enough to make guessing on GPUs costly
    /// and small enough for any machine that runs Quire.
    public static let calibrationMemory: UInt64 = 64 << 20

    /// The 32-byte KEK of `passphrase` with `salt` and `parameters`; fails only when the memory
    /// cannot be had (or the parameters are out of range, which `KeyRing` checks first).
    static func key(
        passphrase: String, salt: [UInt8], parameters: KDFParameters
    ) throws(KeyRingError) -> SecretBytes {
        Sodium.ready()
        precondition(salt.count == saltBytes, "an Argon2id salt is \(saltBytes) bytes")
        // A copy of the passphrase's UTF-8 that is wiped after use (a String cannot be), with a
        // zero after it so even an empty passphrase has an address to pass.
        var text = passphrase.utf8.map { CChar(bitPattern: $0) } + [0]
        defer { text.withUnsafeMutableBytes { sodium_memzero($0.baseAddress, $0.count) } }
        return try SecretBytes(count: 32) { (output) throws(KeyRingError) in
            let status = crypto_pwhash(
                output.baseAddress!, UInt64(output.count), text, UInt64(text.count - 1), salt, parameters.opsLimit,
                Int(parameters.memLimit), crypto_pwhash_argon2id_alg_argon2id13())
            if status != 0 { throw .keyDerivationFailed(memoryBytes: parameters.memLimit) }
        }
    }

    /// Parameters that take about `target` seconds on this machine with `memory` bytes: the
    /// memory is fixed, the passes are measured and scaled (Argon2id's time grows linearly with
    /// them), never below libsodium's interactive 2 passes nor above the ceiling a key ring may
    /// ask for. Runs Argon2id three times with 2 passes (0.2 to 0.5 s on a 2-core machine, as
    /// loaded as it is): calibrate once, when a key ring is made; the ring keeps the result.
    public static func calibrated(
        target: Duration = .milliseconds(500), memory: UInt64 = calibrationMemory
    ) -> KDFParameters {
        let probe = KDFParameters(opsLimit: 2, memLimit: memory)
        let salt = [UInt8](repeating: 0x5a, count: saltBytes)
        let clock = ContinuousClock()
        // The fastest of three runs: the others may have waited for the processor.
        var fastest = Duration.seconds(1000)
        for _ in 0..<3 {
            let elapsed = clock.measure { _ = try? key(passphrase: "calibration", salt: salt, parameters: probe) }
            fastest = min(fastest, elapsed)
        }
        let perPass = fastest / 2
        let passes = (target / perPass).rounded()
        let floor = Double(KDFParameters.interactive.opsLimit)
        let ceiling = Double(KDFParameters.ceiling.opsLimit)
        return KDFParameters(opsLimit: UInt64(min(max(passes, floor), ceiling)), memLimit: memory)
    }
}
