import Foundation

/// Reads (and so decompresses) its upstream source on a background thread, a few chunks ahead of the consumer,
/// so that decompression and XML parsing use two cores.
public final class PrefetchingByteSource: ByteSource, @unchecked Sendable {
    private let condition = NSCondition()
    @exclusivity(unchecked) private var ready: [[UInt8]] = []
    @exclusivity(unchecked) private var finished = false
    @exclusivity(unchecked) private var cancelled = false
    @exclusivity(unchecked) private var failure: OSMReadError?
    @exclusivity(unchecked) private var current: [UInt8] = []
    @exclusivity(unchecked) private var currentOffset = 0

    /// Starts reading `upstream` in chunks of `chunkSize` bytes, keeping at most `depth` chunks ready.
    public init(upstream: ByteSource, chunkSize: Int = 1 << 20, depth: Int = 4) {
        let box = UpstreamBox(upstream)
        let thread = Thread { [self] in self.produce(box.source, chunkSize: chunkSize, depth: depth) }
        thread.name = "wayfinder-input"
        thread.start()
    }

    deinit {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    private func produce(_ upstream: ByteSource, chunkSize: Int, depth: Int) {
        while true {
            var chunk = [UInt8](repeating: 0, count: chunkSize)
            var count = 0
            var readError: OSMReadError? = nil
            let outcome = chunk.withUnsafeMutableBytes { raw in Result { () throws(OSMReadError) in try upstream.read(into: raw) } }
            switch outcome {
            case let .success(n): count = n
            case let .failure(error): readError = error
            }
            condition.lock()
            while ready.count >= depth && !cancelled { condition.wait() }
            if cancelled { condition.unlock(); return }
            if let readError {
                failure = readError
            } else if count == 0 {
                finished = true
            } else {
                if count < chunkSize { chunk.removeSubrange(count...) }
                ready.append(chunk)
            }
            let done = failure != nil || finished
            condition.broadcast()
            condition.unlock()
            if done { return }
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(OSMReadError) -> Int {
        if currentOffset >= current.count {
            condition.lock()
            while ready.isEmpty && !finished && failure == nil { condition.wait() }
            if !ready.isEmpty {
                current = ready.removeFirst()
                currentOffset = 0
                condition.broadcast()
                condition.unlock()
            } else {
                let error = failure
                condition.unlock()
                if let error { throw error }
                return 0
            }
        }
        let n = min(buffer.count, current.count - currentOffset)
        current.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + currentOffset, byteCount: n)
        }
        currentOffset += n
        return n
    }
}

/// Hands a non-Sendable source to the one background thread that reads it.
private final class UpstreamBox: @unchecked Sendable {
    let source: ByteSource
    init(_ source: ByteSource) { self.source = source }
}
