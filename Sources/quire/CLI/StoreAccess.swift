import Foundation
import QuireStore

/// Opens the local store for a command: creates the data directory when it is missing, checks
/// that it can be written, and opens `<data>/quire.db` (running migrations only when due).
///
/// Every command that touches the store goes through here, so all of them report an unusable
/// data directory or database the same way (exit 6, one line, the file left alone).
enum StoreAccess {
    /// The store of this process, kept until the process exits.
    ///
    /// Never released on purpose: closing the last connection checkpoints the WAL into the
    /// database file and deletes it, and the next process would then pay to create it again.
    /// Leaving the WAL in place at exit is as safe as any crash, which SQLite is built for.
    nonisolated(unsafe) private static var retained: AppDatabase?

    static func open(paths: QuirePaths = QuirePaths()) throws(CLIFailure) -> AppDatabase {
        let directory = paths.dataDirectory
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw CLIFailure(.unusable, "the data directory \(directory) is not a directory")
            }
        } else {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw CLIFailure(.unusable, "cannot create the data directory \(directory): \(reason(error))")
            }
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw CLIFailure(.unusable, "the data directory \(directory) is not writable")
        }
        do {
            let store = try AppDatabase.open(path: paths.database, connections: .single) {
                FileHandle.standardError.write(Data("quire: upgrading the store for this version of Quire…\n".utf8))
            }
            retained = store
            return store
        } catch {
            throw CLIFailure(.unusable, error.description)
        }
    }

    /// The system's words for a file error ("Permission denied", "Not a directory").
    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return nsError.localizedDescription
    }
}
