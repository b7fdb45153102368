import ArgumentParser
import Foundation
import QuireCrypto

/// What end-to-end encryption costs a device, in process: unlocking the key ring (Argon2id at
/// the parameters calibrated on this machine) and sealing, opening and MACing one field value.
///
/// These are the per-unlock and per-field costs the encrypted sync path is built from (issue
/// 29): unlocking runs once per device, never per item; a pull opens every field of every
/// item. Prints a Markdown table to `--output`.
struct CryptoBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crypto",
        abstract: "Time unlocking the key ring and sealing, opening and MACing a field value.")

    @Option(help: "Where to write the Markdown fragment (default: standard output).")
    var output: String?

    @Option(help: "Field values sealed, opened and MACed in each timed batch (5 batches).")
    var fields: Int = 100_000

    /// Unlocks timed, each about half a second.
    static let unlocks = 7

    func validate() throws {
        guard fields > 0 else { throw ValidationError("--fields must be 1 or more") }
    }

    func run() throws {
        let clock = ContinuousClock()
        var parameters = KDFParameters.interactive
        let calibration = clock.measure { parameters = KeyDerivation.calibrated() }
        let new = try KeyRing.create(passphrase: "a passphrase of some length", parameters: parameters)
        let byPassphrase = (0..<Self.unlocks).map { _ in
            clock.measure { _ = try? new.ring.unlock(passphrase: "a passphrase of some length") }
        }
        let byRecoveryKey = (0..<Self.unlocks).map { _ in
            clock.measure { _ = try? new.ring.unlock(recoveryKey: new.recoveryKey) }
        }
        let keys = new.unlocked.dataKeys
        var rows = [
            CryptoBenchRow(
                "Argon2id parameters, calibrated for about 0.5 s at 64 MiB",
                "\(parameters.opsLimit) passes, \(parameters.memLimit >> 20) MiB", "≥ 64 MiB"),
            CryptoBenchRow("the calibration itself (Argon2id 3 × 2 passes)", Self.seconds(calibration), "—"),
            CryptoBenchRow(
                "unlock with the passphrase, median (90th percentile) of \(Self.unlocks)",
                Self.seconds(Self.median(byPassphrase)) + " (" + Self.seconds(Self.p90(byPassphrase)) + ")",
                "about 0.5 s"),
            CryptoBenchRow(
                "unlock with the recovery key (no Argon2id), median of \(Self.unlocks)",
                Self.micros(Self.median(byRecoveryKey)), "—"),
        ]
        for (name, value) in Self.values {
            let sealed = FieldCipher.seal(value, item: Self.item, field: "body", keys: keys)
            let seal = batches { _ = FieldCipher.seal(value, item: Self.item, field: "body", keys: keys) }
            let open = batches { _ = try? FieldCipher.open(sealed, item: Self.item, field: "body", keys: keys) }
            let mac = batches { _ = ValueMAC.mac(of: value, item: Self.item, field: "body", keys: keys) }
            rows += [
                CryptoBenchRow("seal \(name)", Self.micros(seal), "—"),
                CryptoBenchRow("open \(name)", Self.micros(open), "—"),
                CryptoBenchRow("MAC of \(name)", Self.micros(mac), "—"),
                CryptoBenchRow(
                    "sealed size of \(name) (+ bytes)", "\(sealed.utf8.count) (+\(sealed.utf8.count - value.count))",
                    "—"),
            ]
        }
        rows.append(itemRow(keys: keys))
        rows += Self.chunkRows(keys: keys)
        let markdown = Self.markdown(rows, fields: fields)
        if let output {
            try markdown.write(toFile: output, atomically: true, encoding: .utf8)
        } else {
            print(markdown, terminator: "")
        }
    }

    /// Sealing and opening an attached file's chunks of 1 MiB (issue 32): each seal also
    /// hashes the chunk for its nonce and the sealed bytes for their address, each open checks
    /// the address before opening, as an upload and a download do. Median of 5 batches of 64.
    static func chunkRows(keys: DataKeys) -> [CryptoBenchRow] {
        let chunk = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        let key = FileCipher.newKey(forContent: String(repeating: "ab", count: 32), keys: keys)
        let sealed = key.seal(chunk, index: 3, isLast: false)
        let clock = ContinuousClock()
        func perChunk(_ operation: () -> Void) -> Duration {
            median((0..<5).map { _ in clock.measure { for _ in 0..<64 { operation() } } / 64 })
        }
        let seal = perChunk { _ = key.address(ofSealed: key.seal(chunk, index: 3, isLast: false)) }
        let open = perChunk {
            _ = key.address(ofSealed: sealed)
            _ = try? key.open(sealed, index: 3, isLast: false)
        }
        func rate(_ duration: Duration) -> String {
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            return Self.seconds(duration) + String(format: " (%.0f MiB/s)", 1 / seconds)
        }
        return [
            CryptoBenchRow("seal a 1 MiB chunk of an attached file, with its nonce and address", rate(seal), "—"),
            CryptoBenchRow("check a 1 MiB sealed chunk's address and open it", rate(open), "—"),
            CryptoBenchRow(
                "sealed chunk size (+ bytes)", "\(sealed.count) (+\(sealed.count - chunk.count))", "—"),
        ]
    }

    /// An item id as the devices make them (a UUIDv7's text).
    static let item = "01935f4e-8a2b-7c3d-9e4f-5a6b7c8d9e0f"

    /// Field values as a field carries them (the bytes of their JSON): a title, and a body of
    /// 2 KiB, about a page of notes.
    static let values: [(String, Data)] = [
        ("a title (26 bytes of JSON)", Data(#""Call the plumber at noon""#.utf8)),
        ("a body (2 KiB of JSON)", Data(("\"" + String(repeating: "word ", count: 409) + "\"").utf8)),
    ]

    /// The median time of one operation over 5 batches of `fields` of them.
    func batches(_ operation: () -> Void) -> Duration {
        let clock = ContinuousClock()
        let times = (0..<5).map { _ in
            clock.measure { for _ in 0..<fields { operation() } } / fields
        }
        return Self.median(times)
    }

    static func median(_ times: [Duration]) -> Duration { times.sorted()[times.count / 2] }

    static func p90(_ times: [Duration]) -> Duration {
        times.sorted()[min(times.count - 1, Int((Double(times.count) * 0.9).rounded(.up)) - 1)]
    }

    /// Seconds, or milliseconds below one.
    static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds < 1 ? String(format: "%.1f ms", seconds * 1e3) : String(format: "%.2f s", seconds)
    }

    static func micros(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return String(format: "%.2f µs", seconds * 1e6)
    }

    static func markdown(_ rows: [CryptoBenchRow], fields: Int) -> String {
        var lines = [
            "## Encryption",
            "",
            "What end-to-end encryption costs a device, in process (QuireCrypto over libsodium): unlocking the",
            "key ring with the passphrase (Argon2id at the parameters the calibration picks on this machine),",
            "with the recovery key, and sealing (XChaCha20-Poly1305), opening and MACing (keyed BLAKE2b) one",
            "field value, median of 5 batches of \(fields). A device unlocks once, never per item; a first",
            "pull opens every field of every item. Sealed sizes are of the whole `v1.<key id>.<base64url>` text.",
            "",
            "| measure | result | target |",
            "| --- | ---: | --- |",
        ]
        lines += rows.map { "| \($0.measure) | \($0.result) | \($0.target) |" }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// One line of the table.
struct CryptoBenchRow {
    let measure: String
    let result: String
    let target: String

    init(_ measure: String, _ result: String, _ target: String) {
        self.measure = measure
        self.result = result
        self.target = target
    }
}
