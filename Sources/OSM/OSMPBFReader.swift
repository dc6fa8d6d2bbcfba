import CDeflate
import Foundation

/// Reads OSM PBF (`.osm.pbf`) and hands each node, way and relation to a handler, in file order.
///
/// The file is a sequence of blobs, each a 4-byte big-endian length, a `BlobHeader` and a `Blob` (fileformat.proto).
/// The calling thread reads the blobs one after the other; worker threads, one per core, decompress (libdeflate, one
/// shot: a blob carries its raw size) and decode them (`PBFBlockDecoder`); the calling thread hands the elements
/// to the handler block by block in file order, so the handler sees exactly the sequence the XML of the same data
/// gives, on one thread. Errors name the offset of the blob at fault; the first in file order is the one thrown.
public final class OSMPBFReader: @unchecked Sendable {
    /// The format's limits (fileformat.proto): a `BlobHeader` of at most 64 KiB, a `Blob` of at most 32 MiB.
    public static let maxBlobHeaderSize = 64 * 1024
    public static let maxBlobSize = 32 * 1024 * 1024

    /// Elements handed to the handler so far, for progress reports.
    @exclusivity(unchecked) public private(set) var nodeCount = 0
    @exclusivity(unchecked) public private(set) var wayCount = 0
    @exclusivity(unchecked) public private(set) var relationCount = 0
    /// Elements skipped because their `visible` flag is false.
    @exclusivity(unchecked) public private(set) var deletedCount = 0
    /// `OSMData` blocks handed over so far.
    @exclusivity(unchecked) public private(set) var blockCount = 0
    /// Raw bytes of the file consumed so far.
    @exclusivity(unchecked) public private(set) var bytesConsumed: Int64 = 0
    /// The file's `OSMHeader` block, once read.
    @exclusivity(unchecked) public private(set) var header: PBFHeader?

    private let source: ByteSource
    private let name: String
    private let handler: OSMElementHandler
    private let threads: Int

    /// Prepares to read `source` (named `name` in errors), calling `handler` for every element; `threads` workers
    /// decode blocks (default: one per core).
    public init(source: ByteSource, name: String, handler: OSMElementHandler, threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.source = source
        self.name = name
        self.handler = handler
        self.threads = max(1, threads)
    }

    // MARK: the work shared with the decoding threads

    private enum Kind { case header, data }
    private struct Job { let sequence: Int; let offset: Int64; let kind: Kind; let bytes: [UInt8] }
    private enum Outcome { case header(PBFHeader, offset: Int64), elements(PBFElements), failure(OSMReadError) }

    private let condition = NSCondition()
    @exclusivity(unchecked) private var jobs: [Job] = []
    @exclusivity(unchecked) private var jobHead = 0
    @exclusivity(unchecked) private var outcomes: [Int: Outcome] = [:]
    /// Blocks handed over, left for a worker to free: their thousands of arrays need not be freed on the handler's thread.
    @exclusivity(unchecked) private var spent: [Outcome] = []
    @exclusivity(unchecked) private var closed = false
    @exclusivity(unchecked) private var runningWorkers = 0

    private func startWorkers() {
        closed = false
        runningWorkers = threads
        for index in 0..<threads {
            let thread = Thread { [self] in self.work() }
            thread.name = "wayfinder-pbf-\(index)"
            thread.start()
        }
    }

    /// Tells the workers to stop once the queue is empty (or at once, dropping what is queued) and waits for them.
    private func stopWorkers(dropQueued: Bool) {
        condition.lock()
        closed = true
        if dropQueued { jobs.removeAll(); jobHead = 0 }
        condition.broadcast()
        while runningWorkers > 0 { condition.wait() }
        condition.unlock()
    }

    private func work() {
        var decompressor = BlobDecompressor()
        defer { decompressor.release() }
        while true {
            condition.lock()
            while jobHead == jobs.count && !closed { condition.wait() }
            if jobHead == jobs.count {
                runningWorkers -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let job = jobs[jobHead]
            jobs[jobHead] = Job(sequence: -1, offset: 0, kind: .data, bytes: [])
            jobHead += 1
            if jobHead > 64 && jobHead * 2 > jobs.count { jobs.removeFirst(jobHead); jobHead = 0 }
            var garbage = spent
            spent = []
            condition.unlock()
            garbage = []
            _ = garbage
            let outcome = decode(job, with: &decompressor)
            condition.lock()
            outcomes[job.sequence] = outcome
            condition.broadcast()
            condition.unlock()
        }
    }

    private func decode(_ job: Job, with decompressor: inout BlobDecompressor) -> Outcome {
        let result: Result<Outcome, ProtobufError> = job.bytes.withUnsafeBytes { blob in
            do throws(ProtobufError) {
                return .success(try decompressor.withContents(ofBlob: blob) { (data) throws(ProtobufError) -> Outcome in
                    switch job.kind {
                    case .header:
                        do throws(ProtobufError) { return .header(try PBFBlockDecoder.decodeHeader(data), offset: job.offset) } catch { throw ProtobufError("OSMHeader block: \(error.message)") }
                    case .data:
                        do throws(ProtobufError) { return .elements(try PBFBlockDecoder.decodePrimitiveBlock(data)) } catch { throw ProtobufError("OSMData block: \(error.message)") }
                    }
                })
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case let .success(outcome): return outcome
        case let .failure(error): return .failure(.badPBF(name: name, offset: job.offset, message: error.message))
        }
    }

    // MARK: reading

    /// Reads the whole file; `progress` is called after every block handed to the handler.
    public func read(progress: (OSMPBFReader) -> Void = { _ in }) throws(OSMReadError) {
        startWorkers()
        var failed = true
        defer { stopWorkers(dropQueued: failed) }
        // Blocks read ahead of the one being handed over: one per worker, so every worker decodes while this thread
        // feeds the handler, and no more, since a decoded block of ways or relations holds a few MB of elements
        // (more blocks in flight buy no speed on a handler-bound import, only memory).
        let window = threads
        var submitted = 0
        var delivered = 0
        var atEnd = false
        var readFailure: OSMReadError? = nil
        func refill() {
            while !atEnd && submitted - delivered < window {
                do {
                    guard let (kind, offset, bytes) = try nextBlob(first: submitted == 0) else { atEnd = true; break }
                    condition.lock()
                    jobs.append(Job(sequence: submitted, offset: offset, kind: kind, bytes: bytes))
                    condition.signal()
                    condition.unlock()
                    submitted += 1
                } catch {
                    readFailure = error
                    atEnd = true
                }
            }
        }
        while true {
            refill()
            if delivered == submitted { break }
            condition.lock()
            while outcomes[delivered] == nil { condition.wait() }
            var taken = outcomes.removeValue(forKey: delivered)
            condition.unlock()
            let outcome = taken!
            delivered += 1
            // Read the next blobs before handing this block over, so the workers decode while the handler works.
            refill()
            switch outcome {
            case let .failure(error): throw error
            case let .header(header, offset):
                do { try header.checkFeatures() } catch { throw .badPBF(name: name, offset: offset, message: "OSMHeader block: \(error.message)") }
                if self.header == nil { self.header = header }
            case let .elements(elements):
                deliver(elements)
                condition.lock()
                spent.append(taken.take()!)
                condition.unlock()
                progress(self)
            }
        }
        if let readFailure { throw readFailure }
        if header == nil { throw .badPBF(name: name, offset: 0, message: "the file holds no OSMHeader block") }
        failed = false
    }

    private func deliver(_ elements: PBFElements) {
        blockCount += 1
        deletedCount += elements.deletedCount
        for group in elements.groups {
            switch group {
            case let .nodes(nodes):
                nodes.withUnsafeBufferPointer { for i in $0.indices { handler.handle(node: $0[i]) } }
                nodeCount += nodes.count
            case let .ways(ways):
                ways.withUnsafeBufferPointer { for i in $0.indices { handler.handle(way: $0[i]) } }
                wayCount += ways.count
            case let .relations(relations):
                relations.withUnsafeBufferPointer { for i in $0.indices { handler.handle(relation: $0[i]) } }
                relationCount += relations.count
            }
        }
    }

    /// Fills `buffer` from the input; returns how many bytes arrived before its end.
    private func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(OSMReadError) -> Int {
        var got = 0
        while got < buffer.count {
            let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[got...]))
            if n == 0 { break }
            got += n
        }
        bytesConsumed += Int64(got)
        return got
    }

    /// The next blob to decode (its kind, offset and `Blob` bytes), nil at the end of the file; unknown blob types
    /// are skipped, as the format asks.
    private func nextBlob(first: Bool) throws(OSMReadError) -> (Kind, Int64, [UInt8])? {
        while true {
            let offset = bytesConsumed
            func bad(_ message: String) -> OSMReadError { .badPBF(name: name, offset: offset, message: message) }
            var prefix: UInt32 = 0
            let got = try withUnsafeMutableBytes(of: &prefix) { (raw) throws(OSMReadError) -> Int in try fill(raw) }
            if got == 0 {
                if first { throw bad("the file holds no blocks") }
                return nil
            }
            guard got == 4 else { throw bad("the file ends inside the blob's 4-byte length (truncated file?)") }
            let headerLength = Int32(bitPattern: UInt32(bigEndian: prefix))
            guard headerLength >= 0 else { throw bad("negative BlobHeader length \(headerLength)") }
            guard headerLength <= Self.maxBlobHeaderSize else {
                throw bad("BlobHeader of \(headerLength) bytes is larger than the format's 64 KiB limit")
            }
            let headerBytes = try readBytes(Int(headerLength)) { bad("the file ends inside the BlobHeader (\($0) of \(headerLength) bytes; truncated file?)") }
            var type: String? = nil
            var dataSize: Int32? = nil
            let parsed: ProtobufError? = headerBytes.withUnsafeBytes { raw in
                do throws(ProtobufError) {
                    var reader = ProtobufReader(raw)
                    while let (field, wire) = try reader.field() {
                        switch field {
                        case 1:
                            try ProtobufReader.expect(wire, .lengthDelimited, field: field, in: "BlobHeader")
                            type = String(decoding: try reader.lengthDelimited(), as: UTF8.self)
                        case 3:
                            try ProtobufReader.expect(wire, .varint, field: field, in: "BlobHeader")
                            dataSize = try reader.int32()
                        default:
                            try reader.skip(wire)
                        }
                    }
                    return nil
                } catch {
                    return error
                }
            }
            if let parsed { throw bad("malformed BlobHeader: \(parsed.message)") }
            guard let type else { throw bad("BlobHeader without a type") }
            guard let dataSize else { throw bad("BlobHeader without a datasize") }
            guard dataSize >= 0 else { throw bad("negative datasize \(dataSize) in the BlobHeader") }
            guard dataSize <= Self.maxBlobSize else {
                throw bad("blob of \(dataSize) bytes is larger than the format's 32 MiB limit")
            }
            if first && type != "OSMHeader" { throw bad("the file starts with a \(type) block, not OSMHeader (not an OSM PBF file?)") }
            let kind: Kind
            switch type {
            case "OSMHeader": kind = .header
            case "OSMData": kind = .data
            default:
                // Unknown blob types are skipped.
                _ = try readBytes(Int(dataSize)) { bad("the file ends inside the \(type) blob (\($0) of \(dataSize) bytes; truncated file?)") }
                continue
            }
            let bytes = try readBytes(Int(dataSize)) { bad("the file ends inside the blob (\($0) of \(dataSize) bytes; truncated file?)") }
            return (kind, offset, bytes)
        }
    }

    private func readBytes(_ count: Int, truncated: (Int) -> OSMReadError) throws(OSMReadError) -> [UInt8] {
        var failure: OSMReadError? = nil
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(OSMReadError) {
                initialized = try fill(UnsafeMutableRawBufferPointer(buffer))
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        if bytes.count < count { throw truncated(bytes.count) }
        return bytes
    }
}

/// Unpacks a `Blob` message: raw bytes as they are, zlib data with libdeflate into a buffer of the stated raw size.
struct BlobDecompressor {
    private var decompressor: OpaquePointer?
    private var buffer: UnsafeMutableRawBufferPointer?

    init() {}

    mutating func release() {
        if let decompressor { libdeflate_free_decompressor(decompressor) }
        decompressor = nil
        buffer?.deallocate()
        buffer = nil
    }

    /// Calls `body` with the blob's uncompressed contents (valid only during the call).
    mutating func withContents<T>(ofBlob blob: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws(ProtobufError) -> T) throws(ProtobufError) -> T {
        var reader = ProtobufReader(blob)
        var raw: UnsafeRawBufferPointer? = nil
        var zlib: UnsafeRawBufferPointer? = nil
        var rawSize: Int32? = nil
        var unsupported: String? = nil
        do throws(ProtobufError) {
            while let (field, wire) = try reader.field() {
                switch field {
                case 1: try ProtobufReader.expect(wire, .lengthDelimited, field: 1, in: "Blob"); raw = try reader.lengthDelimited()
                case 2: try ProtobufReader.expect(wire, .varint, field: 2, in: "Blob"); rawSize = try reader.int32()
                case 3: try ProtobufReader.expect(wire, .lengthDelimited, field: 3, in: "Blob"); zlib = try reader.lengthDelimited()
                case 4: unsupported = "lzma"; try reader.skip(wire)
                case 5: unsupported = "bzip2 (obsolete)"; try reader.skip(wire)
                case 6: unsupported = "lz4"; try reader.skip(wire)
                case 7: unsupported = "zstd"; try reader.skip(wire)
                default: try reader.skip(wire)
                }
            }
        } catch {
            throw ProtobufError("malformed Blob: \(error.message)")
        }
        if let raw { return try body(raw) }
        guard let zlib else {
            if let unsupported {
                throw ProtobufError("\(unsupported)-compressed blob: only raw and zlib blobs are supported (`osmium cat IN.osm.pbf -o OUT.osm.pbf` rewrites it with zlib)")
            }
            throw ProtobufError("the Blob holds no data (neither raw nor zlib_data)")
        }
        guard let rawSize else { throw ProtobufError("zlib blob without raw_size") }
        guard rawSize >= 0 else { throw ProtobufError("negative raw_size \(rawSize)") }
        guard rawSize <= OSMPBFReader.maxBlobSize else { throw ProtobufError("raw_size of \(rawSize) bytes is larger than the format's 32 MiB limit") }
        let size = Int(rawSize)
        if buffer == nil || buffer!.count < size {
            buffer?.deallocate()
            buffer = .allocate(byteCount: max(size, 64 << 10), alignment: 16)
        }
        if decompressor == nil {
            decompressor = libdeflate_alloc_decompressor()
            if decompressor == nil { throw ProtobufError("out of memory for the zlib decompressor") }
        }
        var produced = 0
        let status = libdeflate_zlib_decompress(decompressor, zlib.baseAddress, zlib.count, buffer!.baseAddress, size, &produced)
        switch status {
        case LIBDEFLATE_SUCCESS:
            guard produced == size else { throw ProtobufError("zlib data decompresses to \(produced) bytes, but raw_size says \(size)") }
        case LIBDEFLATE_INSUFFICIENT_SPACE:
            throw ProtobufError("zlib data decompresses to more than raw_size (\(size) bytes)")
        default:
            throw ProtobufError("zlib data is corrupt")
        }
        return try body(UnsafeRawBufferPointer(start: buffer!.baseAddress, count: size))
    }
}
