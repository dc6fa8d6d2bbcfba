import CBZip2

/// Decompresses a bzip2 stream (one or more concatenated streams, as pbzip2 writes) with libbz2.
public final class Bzip2ByteSource: ByteSource {
    private let input: ByteSource
    private let name: String
    @exclusivity(unchecked) private var stream = bz_stream()
    @exclusivity(unchecked) private var inputBuffer: UnsafeMutableRawBufferPointer
    @exclusivity(unchecked) private var inputEnded = false
    @exclusivity(unchecked) private var streamEnded = false
    @exclusivity(unchecked) private var finished = false

    /// Wraps `input`, whose first bytes are a bzip2 header; `name` is used in error messages.
    public init(input: ByteSource, name: String) throws(OSMReadError) {
        self.input = input
        self.name = name
        inputBuffer = .allocate(byteCount: 1 << 18, alignment: 16)
        let status = BZ2_bzDecompressInit(&stream, 0, 0)
        if status != BZ_OK {
            inputBuffer.deallocate()
            throw .corruptCompression(name: name, format: "bzip2", message: "libbz2 could not start (code \(status))")
        }
    }

    deinit {
        BZ2_bzDecompressEnd(&stream)
        inputBuffer.deallocate()
    }

    private func refill() throws(OSMReadError) {
        let got = try input.read(into: inputBuffer)
        if got == 0 { inputEnded = true }
        stream.next_in = inputBuffer.baseAddress!.assumingMemoryBound(to: CChar.self)
        stream.avail_in = UInt32(got)
    }

    private static func message(_ status: Int32) -> String {
        switch status {
        case BZ_DATA_ERROR: return "data integrity error (bad block CRC)"
        case BZ_DATA_ERROR_MAGIC: return "bad bzip2 header"
        case BZ_MEM_ERROR: return "out of memory"
        default: return "libbz2 error \(status)"
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(OSMReadError) -> Int {
        if finished || buffer.count == 0 { return 0 }
        stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
        stream.avail_out = UInt32(min(buffer.count, Int(UInt32.max)))
        while stream.avail_out > 0 {
            if streamEnded {
                // A further bzip2 stream may follow (pbzip2 writes many): start a fresh decoder for it.
                if stream.avail_in == 0 && !inputEnded { try refill() }
                if stream.avail_in == 0 && inputEnded { finished = true; break }
                let saved = (stream.next_in, stream.avail_in, stream.next_out, stream.avail_out)
                BZ2_bzDecompressEnd(&stream)
                stream = bz_stream()
                let status = BZ2_bzDecompressInit(&stream, 0, 0)
                if status != BZ_OK { throw .corruptCompression(name: name, format: "bzip2", message: Self.message(status)) }
                (stream.next_in, stream.avail_in, stream.next_out, stream.avail_out) = saved
                streamEnded = false
            }
            if stream.avail_in == 0 && !inputEnded { try refill() }
            if stream.avail_in == 0 && inputEnded {
                throw .corruptCompression(name: name, format: "bzip2", message: "the stream ends before its end marker (truncated file?)")
            }
            let status = BZ2_bzDecompress(&stream)
            switch status {
            case BZ_OK: continue
            case BZ_STREAM_END: streamEnded = true
            default: throw .corruptCompression(name: name, format: "bzip2", message: Self.message(status))
            }
        }
        return buffer.count - Int(stream.avail_out)
    }
}
