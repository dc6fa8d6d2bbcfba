#if canImport(Glibc)
import Glibc
#endif

/// The hidden files written beside an output before being renamed into place (`.NAME.tmp-PID`, the one file of an
/// import; `.NAME.base-PID` and `.NAME.roads-PID` were also written by older builds): registered while they exist so
/// that a SIGINT or SIGTERM handler can remove them (`removeAll`), and swept from a folder when the process that
/// wrote them is gone (`sweepStale`).
public enum TemporaryFiles {
    nonisolated(unsafe) private static var paths: [String] = []
    nonisolated(unsafe) private static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        return mutex
    }()

    private static func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// The kinds of temporary file, as the suffix before `-PID` names them (those of older builds included, so that
    /// their leftovers are swept too).
    public static let kinds = ["tmp", "base", "roads"]

    /// The temporary file of `kind` for `path` in this process: `.NAME.KIND-PID` in the same folder.
    public static func path(for path: String, kind: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return folder + "." + base + ".\(kind)-\(getpid())"
    }

    /// The folder of `path` as `sweepStale` takes it ("." for a bare name, "/" at the root).
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Notes a temporary file about to be created.
    public static func register(_ path: String) { locked { paths.append(path) } }

    /// Forgets a temporary file (renamed into place or removed).
    public static func unregister(_ path: String) {
        locked { if let i = paths.lastIndex(of: path) { paths.remove(at: i) } }
    }

    /// Removes every registered file, and keeps the registry locked so no new one is noted: for a signal handler's
    /// thread just before the process ends.
    public static func removeAllForExit() {
        pthread_mutex_lock(mutex)
        for path in paths { unlink(path) }
        paths.removeAll()
    }

    /// Removes the temporary files in `folder` left by processes that no longer run: names `.NAME.KIND-PID` with a
    /// kind of `kinds`, a PID that is not alive (not this process), and content that is a graph file or its
    /// beginning (the magic, or the zero header a writer starts with). Returns the paths removed.
    @discardableResult
    public static func sweepStale(folder: String) -> [String] {
        let folder = folder.isEmpty ? "." : folder
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var removed: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix("."), let pid = stalePID(name), pid != getpid() else { continue }
            // kill(pid, 0) fails with ESRCH only when no such process exists (EPERM: it exists, another user's).
            guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
            let path = (folder.hasSuffix("/") ? folder : folder + "/") + name
            guard looksLikeGraphFile(path) else { continue }
            if unlink(path) == 0 { removed.append(path) }
        }
        return removed
    }

    /// The PID of a name ending in `.KIND-PID`, if it does.
    static func stalePID(_ name: String) -> pid_t? {
        guard let dash = name.lastIndex(of: "-") else { return nil }
        let digits = name[name.index(after: dash)...]
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let pid = pid_t(digits), pid > 0 else { return nil }
        let head = name[..<dash]
        return kinds.contains { head.hasSuffix(".\($0)") } ? pid : nil
    }

    /// Whether the file starts as a graph file does: the magic, or zeros (the header is written last), or is empty.
    private static func looksLikeGraphFile(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        var head = [UInt8](repeating: 0, count: 8)
        let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, 8) }
        if n == 0 { return true }
        guard n == 8 else { return false }
        return head == GraphFileFormat.magic || head.allSatisfy { $0 == 0 }
    }
}

/// Output paths a command may write (replace by renaming a new file over them, or open for appending).
public enum OutputPath {
    /// Why `path` cannot be an output: it exists and is not a regular file (following symbolic links), so
    /// renaming a new file over it would replace a device, FIFO, socket or folder. Nil when it may be written.
    public static func refusal(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let kind: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: kind = "a folder"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFIFO: kind = "a FIFO"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a regular file"
        }
        return "\(path) exists and is \(kind), not a regular file: refusing to replace it (give the path of a file)"
    }
}
