import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A stream of bytes read in chunks: a file, standard input, or a decompressor over one.
public protocol ByteSource: AnyObject {
    /// Fills `buffer` from the front; returns the number of bytes written, 0 at the end of the stream.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(OSMReadError) -> Int
}

/// Raw bytes from a file descriptor (a file or standard input), with a count of bytes read for progress.
public final class FileByteSource: ByteSource, @unchecked Sendable {
    /// What the input is called in messages: its path, or "standard input".
    public let name: String
    /// The file's size when it is a regular file, nil for pipes and terminals.
    public let totalBytes: Int64?
    /// Bytes handed out so far (raw, still compressed); safe to read from another thread.
    public var bytesRead: Int64 {
        counterLock.lock(); defer { counterLock.unlock() }
        return count
    }
    @exclusivity(unchecked) private var count: Int64 = 0
    private let counterLock = NSLock()
    private let fd: Int32
    private let ownsDescriptor: Bool
    @exclusivity(unchecked) private var pending: [UInt8] = []
    @exclusivity(unchecked) private var pendingOffset = 0

    /// Opens `path` for reading; "-" means standard input.
    public init(path: String) throws(OSMReadError) {
        if path == "-" {
            fd = 0
            ownsDescriptor = false
            name = "standard input"
        } else {
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            if opened < 0 { throw .io(path: path, message: String(cString: strerror(errno))) }
            fd = opened
            ownsDescriptor = true
            name = path
        }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
            totalBytes = Int64(info.st_size)
        } else if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            if ownsDescriptor { close(fd) }
            throw .io(path: path, message: "is a directory")
        } else {
            totalBytes = nil
        }
    }

    deinit { if ownsDescriptor { close(fd) } }

    private func addToCount(_ n: Int) {
        counterLock.lock()
        count += Int64(n)
        counterLock.unlock()
    }

    /// Reads up to `count` bytes from the start of the stream and keeps them to be read again.
    public func peek(_ count: Int) throws(OSMReadError) -> [UInt8] {
        var collected: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: count)
        while collected.count < count {
            let wanted = count - collected.count
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, wanted) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .io(path: name, message: String(cString: strerror(errno)))
            }
            if got == 0 { break }
            collected.append(contentsOf: chunk[0..<got])
        }
        pending = collected
        pendingOffset = 0
        return collected
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(OSMReadError) -> Int {
        guard buffer.count > 0 else { return 0 }
        if pendingOffset < pending.count {
            let n = min(buffer.count, pending.count - pendingOffset)
            pending.withUnsafeBytes { src in
                buffer.baseAddress!.copyMemory(from: src.baseAddress! + pendingOffset, byteCount: n)
            }
            pendingOffset += n
            if pendingOffset == pending.count { pending = []; pendingOffset = 0 }
            addToCount(n)
            return n
        }
        while true {
            let got = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if got < 0 {
                if errno == EINTR { continue }
                throw .io(path: name, message: String(cString: strerror(errno)))
            }
            addToCount(got)
            return got
        }
    }
}
