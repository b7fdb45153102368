import Foundation
import QuireCrypto
import QuireProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The server a device syncs with.
public struct SyncRemote: Hashable, Sendable {
    public var url: String
    public var token: String

    public init(url: String, token: String) {
        self.url = url
        self.token = token
    }
}

/// Where the remote is configured: `url` in the `[remote]` section of `config.toml`, the token
/// in the `credentials` file beside it (mode 0600, never printed, never logged).
///
/// Only the `[remote]` section is read and rewritten; the rest of `config.toml` is kept line
/// for line. Values are TOML basic strings.
public struct SyncSettings: Sendable {
    public let configPath: String
    public let credentialsPath: String

    public init(configPath: String, credentialsPath: String) {
        self.configPath = configPath
        self.credentialsPath = credentialsPath
    }

    /// The configured remote, or nil when there is none (or its token is missing).
    public func remote() -> SyncRemote? {
        guard let url = remoteURL(),
            let token = SyncSettings.value(of: "token", inSection: "remote", of: read(credentialsPath))
        else { return nil }
        return SyncRemote(url: url, token: token)
    }

    /// The configured URL, even without a token.
    public func remoteURL() -> String? {
        SyncSettings.value(of: "url", inSection: "remote", of: read(configPath))
    }

    /// False when `live = "off"` in `[remote]`: the app then polls instead of keeping a hint
    /// stream open.
    public var liveHints: Bool {
        SyncSettings.value(of: "live", inSection: "remote", of: read(configPath)) != "off"
    }

    /// When attached files come down: `download` in `[attachments]` (`always`, the default, or
    /// `on-open`, when a person asks for the file).
    public var downloadPolicy: AttachmentDownloadPolicy {
        SyncSettings.value(of: "download", inSection: "attachments", of: read(configPath))
            .flatMap(AttachmentDownloadPolicy.init(rawValue:)) ?? .always
    }

    /// True when a token is stored.
    public var hasToken: Bool {
        SyncSettings.value(of: "token", inSection: "remote", of: read(credentialsPath)) != nil
    }

    /// Stores the remote: the URL in the config, the token in the credentials file (0600).
    public func setRemote(_ remote: SyncRemote) throws(SyncSettingsError) {
        try SyncSettings.checkURL(remote.url)
        guard !remote.token.isEmpty, !remote.token.contains(where: { $0.isNewline || $0 == " " }) else {
            throw SyncSettingsError("the token is empty or has spaces or line breaks in it")
        }
        try makeDirectory(of: configPath)
        try makeDirectory(of: credentialsPath)
        let config = ConfigFile.replacingSection(
            "remote", in: read(configPath), with: ["url = \(ConfigFile.quoted(remote.url))"])
        try write(config, to: configPath, mode: 0o644)
        // The encryption keys stay: a new token for the same account needs no new unlock.
        let credentials = ConfigFile.replacingSection(
            "remote", in: read(credentialsPath) ?? SyncSettings.credentialsHeader,
            with: ["token = \(ConfigFile.quoted(remote.token))"])
        try write(credentials, to: credentialsPath, mode: 0o600)
    }

    static let credentialsHeader = "# Quire's sync credentials: keep this file private.\n"

    /// The account's data keys this device holds (after `quire encryption enable` or `unlock`),
    /// nil when it holds none; throws when the stored keys cannot be read.
    public func dataKeys() throws(SyncSettingsError) -> DataKeys? {
        guard let text = SyncSettings.value(of: "keys", inSection: "encryption", of: read(credentialsPath)) else {
            return nil
        }
        guard let json = Data(base64Encoded: text), let keys = try? JSONDecoder().decode(DataKeys.self, from: json)
        else { throw SyncSettingsError("\(credentialsPath): the encryption keys cannot be read; unlock again") }
        return keys
    }

    /// The version of the account's key ring the held data keys were last taken from, nil when
    /// unknown (keys kept by an earlier version of Quire): a sync answer naming another version
    /// makes the device read the ring for keys added since (`KeyLearning`).
    public func keyRingVersion() -> Int? {
        SyncSettings.value(of: "ring", inSection: "encryption", of: read(credentialsPath)).flatMap { Int($0) }
    }

    /// The account's key ring as it was when the held data keys were taken from it, nil when
    /// none was kept (keys kept by an earlier version of Quire) or it does not read: what puts
    /// back keys a server lost when it was restored from a backup (`KeyRing.restoring(keysFrom:)`).
    public func keptKeyRing() -> KeyRing? {
        SyncSettings.value(of: "keyring", inSection: "encryption", of: read(credentialsPath))
            .flatMap { Data(base64Encoded: $0) }.flatMap { try? KeyRing.decode($0) }
    }

    /// Stores the data keys in the credentials file (mode 0600), beside the token, with the
    /// key ring they come from (its version, and a copy of it); nil forgets them. Every change
    /// of a device's keys (enable, unlock, rotate, learning a rotation) comes through here.
    public func setDataKeys(_ keys: DataKeys?, from ring: KeyRingDocument? = nil) throws(SyncSettingsError) {
        try makeDirectory(of: credentialsPath)
        let lines = try keys.map { keys throws(SyncSettingsError) -> [String] in
            guard let json = try? JSONEncoder().encode(keys) else {
                throw SyncSettingsError("the encryption keys cannot be written")
            }
            let kept = ring.map {
                [
                    "ring = \(ConfigFile.quoted(String($0.version)))",
                    "keyring = \(ConfigFile.quoted($0.keyring.encoded().base64EncodedString()))",
                ]
            }
            return ["keys = \(ConfigFile.quoted(json.base64EncodedString()))"] + (kept ?? [])
        }
        let text = ConfigFile.replacingSection(
            "encryption", in: read(credentialsPath) ?? SyncSettings.credentialsHeader, with: lines)
        try write(text, to: credentialsPath, mode: 0o600)
    }

    /// Forgets the remote and its token.
    public func removeRemote() throws(SyncSettingsError) {
        if let text = read(configPath) {
            try write(ConfigFile.replacingSection("remote", in: text, with: nil), to: configPath, mode: 0o644)
        }
        if FileManager.default.fileExists(atPath: credentialsPath) {
            do {
                try FileManager.default.removeItem(atPath: credentialsPath)
            } catch {
                throw SyncSettingsError("cannot remove \(credentialsPath): \(error.localizedDescription)")
            }
        }
    }

    /// A URL the transport can use: http or https with a host.
    public static func checkURL(_ text: String) throws(SyncSettingsError) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { throw SyncSettingsError("'\(text)' is not an http:// or https:// URL") }
    }

    // MARK: - Files

    private func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    private func makeDirectory(of path: String) throws(SyncSettingsError) {
        let directory = (path as NSString).deletingLastPathComponent
        guard !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) else { return }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw SyncSettingsError("cannot create \(directory): \(error.localizedDescription)")
        }
    }

    /// Writes through a temporary file created with `mode`, then renames it into place, so the
    /// file is never seen half written and a secret never exists with wider permissions.
    private func write(_ text: String, to path: String, mode: mode_t) throws(SyncSettingsError) {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, mode)
        guard fd >= 0 else { throw SyncSettingsError("cannot write \(path): \(String(cString: strerror(errno)))") }
        fchmod(fd, mode)
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw SyncSettingsError("cannot write \(path): \(reason)")
            }
            offset += written
        }
        fsync(fd)
        close(fd)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw SyncSettingsError("cannot write \(path): \(reason)")
        }
    }

    // MARK: - The little TOML it needs

    /// The keys each file may hold.
    static let configKeys: [String: Set<String>] = ["remote": ["url", "live"], "attachments": ["download"]]
    static let credentialKeys: [String: Set<String>] = [
        "remote": ["token"], "encryption": ["keys", "ring", "keyring"],
    ]

    /// Throws for the first line of `config.toml` or `credentials` that Quire cannot read or
    /// does not know, naming the file and the line; a missing file is fine.
    public func check() throws(SyncSettingsError) {
        for (path, keys) in [(configPath, SyncSettings.configKeys), (credentialsPath, SyncSettings.credentialKeys)] {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            do {
                let file = try ConfigFile(parsing: data)
                if path == configPath {
                    try file.checkKeys(keys, named: [SyncSettings.viewsSection])
                    try SyncSettings.checkViews(in: file)
                } else {
                    try file.checkKeys(keys)
                }
            } catch {
                throw SyncSettingsError("\(path): \(error)")
            }
            if path == configPath, let live = SyncSettings.value(of: "live", inSection: "remote", of: read(path)),
                live != "on", live != "off"
            {
                throw SyncSettingsError("\(path): live must be \"on\" or \"off\", not \"\(live)\"")
            }
            if path == configPath,
                let download = SyncSettings.value(of: "download", inSection: "attachments", of: read(path)),
                AttachmentDownloadPolicy(rawValue: download) == nil
            {
                throw SyncSettingsError(
                    "\(path): download in [attachments] must be \"always\" or \"on-open\", not \"\(download)\"")
            }
        }
    }

    /// The string value of `key` in `[section]`, or nil (also when the file is not readable:
    /// `check()` says why).
    static func value(of key: String, inSection section: String, of text: String?) -> String? {
        guard let text, let file = try? ConfigFile(parsing: text) else { return nil }
        return file.value(key, in: section).flatMap { $0.isEmpty ? nil : $0 }
    }
}

public struct SyncSettingsError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
