import CZlib

/// Decompresses a gzip stream (one or more concatenated members) with zlib's inflate.
public final class GzipByteSource: ByteSource {
    private let input: ByteSource
    private let name: String
    @exclusivity(unchecked) private var stream = z_stream()
    @exclusivity(unchecked) private var inputBuffer: UnsafeMutableRawBufferPointer
    @exclusivity(unchecked) private var inputEnded = false
    @exclusivity(unchecked) private var memberEnded = false
    @exclusivity(unchecked) private var finished = false

    /// Wraps `input`, whose first bytes are a gzip header; `name` is used in error messages.
    public init(input: ByteSource, name: String) throws(OSMReadError) {
        self.input = input
        self.name = name
        inputBuffer = .allocate(byteCount: 1 << 18, alignment: 16)
        let status = inflateInit2_(&stream, 16 + MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        if status != Z_OK {
            inputBuffer.deallocate()
            throw .corruptCompression(name: name, format: "gzip", message: "zlib could not start (code \(status))")
        }
    }

    deinit {
        inflateEnd(&stream)
        inputBuffer.deallocate()
    }

    private func refill() throws(OSMReadError) {
        let got = try input.read(into: inputBuffer)
        if got == 0 { inputEnded = true }
        stream.next_in = inputBuffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.avail_in = UInt32(got)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(OSMReadError) -> Int {
        if finished || buffer.count == 0 { return 0 }
        stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = UInt32(min(buffer.count, Int(UInt32.max)))
        while stream.avail_out > 0 {
            if memberEnded {
                // Another gzip member may follow the one that just ended.
                if stream.avail_in == 0 && !inputEnded { try refill() }
                if stream.avail_in == 0 && inputEnded { finished = true; break }
                inflateReset(&stream)
                memberEnded = false
            }
            if stream.avail_in == 0 && !inputEnded { try refill() }
            if stream.avail_in == 0 && inputEnded {
                throw .corruptCompression(name: name, format: "gzip", message: "the stream ends before its end marker (truncated file?)")
            }
            let status = inflate(&stream, Z_NO_FLUSH)
            switch status {
            case Z_OK, Z_BUF_ERROR: continue
            case Z_STREAM_END: memberEnded = true
            default:
                let detail = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw .corruptCompression(name: name, format: "gzip", message: detail)
            }
        }
        return buffer.count - Int(stream.avail_out)
    }
}
