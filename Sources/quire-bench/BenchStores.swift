import Foundation
import QuireStore
import Synchronization

/// The bench's temporary stores, each removed when the process ends, however it ends.
///
/// A temporary store removes its directory when the store object goes away, but a run's sync
/// worker, engine and runtime keep theirs for the rest of the process, and an exit frees
/// nothing: every run of `sync --only files` left 32 stores under the temporary folder (about
/// 4 GB, most holding the 100 MB file), until a day of runs filled the disk.
enum BenchStores {
    private static let directories = Mutex<[String]?>(nil)

    /// A new store under the temporary folder (`AppDatabase.temporary`), removed at exit.
    static func temporary(environment: StoreEnvironment = .live) throws -> AppDatabase {
        let store = try AppDatabase.temporary(environment: environment)
        let directory = (store.path as NSString).deletingLastPathComponent
        directories.withLock { known in
            if known == nil {
                known = []
                atexit { BenchStores.removeAll() }
            }
            known?.append(directory)
        }
        return store
    }

    private static func removeAll() {
        for directory in directories.withLock({ $0 ?? [] }) {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}
