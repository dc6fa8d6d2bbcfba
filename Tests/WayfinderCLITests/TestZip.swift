import CZlib
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Zip archives for the CLI tests, honest or hostile (a copy of TransitTests/TestZip.swift, plus a reader for the
/// bundled feed and members deflated from a repeated chunk, for zip bombs that never sit whole in memory).
struct TestZip {
    struct Entry {
        var name: String
        var data: [UInt8]
        /// The member's content is `data` repeated this many times (deflated chunk by chunk).
        var repeats = 1
        /// What the directory claims, when not the truth.
        var declaredSize: Int? = nil
    }

    static func build(_ entries: [Entry]) -> [UInt8] {
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        var out: [UInt8] = [], central: [UInt8] = []
        for entry in entries {
            let body = deflate(entry.data, repeats: entry.repeats)
            var crc: UInt = 0
            for _ in 0..<entry.repeats { crc = entry.data.withUnsafeBufferPointer { CZlib.crc32(crc, $0.baseAddress, UInt32($0.count)) } }
            let size = entry.declaredSize ?? entry.data.count * entry.repeats
            let name = Array(entry.name.utf8)
            let offset = out.count
            out += [0x50, 0x4b, 0x03, 0x04] + le(20, 2) + le(0, 2) + le(8, 2) + le(0, 4) + le(Int(crc), 4)
            out += le(body.count, 4) + le(size, 4) + le(name.count, 2) + le(0, 2) + name + body
            central += [0x50, 0x4b, 0x01, 0x02] + le(20, 2) + le(20, 2) + le(0, 2) + le(8, 2) + le(0, 4) + le(Int(crc), 4)
            central += le(body.count, 4) + le(size, 4) + le(name.count, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(offset, 4) + name
        }
        let centralOffset = out.count
        out += central
        out += [0x50, 0x4b, 0x05, 0x06] + le(0, 2) + le(0, 2) + le(entries.count, 2) + le(entries.count, 2) + le(central.count, 4) + le(centralOffset, 4) + le(0, 2)
        return out
    }

    /// Raw deflate of `data` repeated `repeats` times, fed to zlib one chunk at a time.
    static func deflate(_ data: [UInt8], repeats: Int = 1) -> [UInt8] {
        var stream = z_stream()
        deflateInit2_(&stream, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var input = data
        for k in 0..<repeats {
            input.withUnsafeMutableBufferPointer { inp in
                stream.next_in = inp.baseAddress; stream.avail_in = UInt32(inp.count)
                repeat {
                    buffer.withUnsafeMutableBufferPointer { o in
                        stream.next_out = o.baseAddress; stream.avail_out = UInt32(o.count)
                        _ = CZlib.deflate(&stream, k == repeats - 1 ? Z_FINISH : Z_NO_FLUSH)
                        out += o[0..<(o.count - Int(stream.avail_out))]
                    }
                } while stream.avail_out == 0 || (k == repeats - 1 && stream.avail_in > 0)
            }
        }
        return out
    }

    /// The members of a (deflate or stored) zip file, read without the project's reader.
    static func members(of path: String) throws -> [(name: String, data: [UInt8])] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        var end = bytes.count - 22
        while u32(end) != 0x0605_4b50 { end -= 1 }
        var entry = u32(end + 16)
        var members: [(String, [UInt8])] = []
        for _ in 0..<u16(end + 10) {
            let nameLength = u16(entry + 28), method = u16(entry + 10), compressed = u32(entry + 20), size = u32(entry + 24), local = u32(entry + 42)
            let name = String(decoding: bytes[(entry + 46)..<(entry + 46 + nameLength)], as: UTF8.self)
            let start = local + 30 + u16(local + 26) + u16(local + 28)
            var data = [UInt8](repeating: 0, count: size)
            if method == 0 { data = Array(bytes[start..<(start + size)]) } else {
                var stream = z_stream()
                inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
                bytes.withUnsafeBufferPointer { inp in
                    data.withUnsafeMutableBufferPointer { o in
                        stream.next_in = UnsafeMutablePointer(mutating: inp.baseAddress! + start); stream.avail_in = UInt32(compressed)
                        stream.next_out = o.baseAddress; stream.avail_out = UInt32(o.count)
                        _ = inflate(&stream, Z_FINISH)
                    }
                }
                inflateEnd(&stream)
            }
            members.append((name, data))
            entry += 46 + nameLength + u16(entry + 30) + u16(entry + 32)
        }
        return members
    }
}

/// A finished child process: its exit status (or signal), peak RSS and wall time.
struct MeasuredRun {
    var status: Int32
    var signal: Int32?
    var stderr: String
    /// The child's own peak resident memory: the largest VmHWM of /proc/PID/status seen while it ran (polled every
    /// 2 ms, from its exec on), bytes.
    var peakRSS: Int
    /// wait4's ru_maxrss, bytes: an upper bound only, since Linux counts into it the peak of the process the child
    /// was spawned from (the test runner) until its exec.
    var maxRSSBound: Int
    var seconds: Double
}

extension CLITestCase {
    /// The VmHWM (peak RSS) of process `pid` once it runs `wayfinder`, bytes; nil before its exec or after its exit.
    private func highWaterMark(_ pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              text.hasPrefix("Name:\twayfinder") else { return nil }
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first { !$0.isEmpty }.map(String.init) ?? "").map { $0 * 1024 }
    }

    /// Runs `wayfinder arguments` with posix_spawn (output to files), watching its peak RSS, and reaps it with wait4.
    func runMeasured(_ arguments: [String], timeout: TimeInterval = 120) throws -> MeasuredRun {
        let executable = try wayfinderExecutable().path
        let errPath = tmp(".measured-stderr-\(UUID().uuidString)")
        defer { unlink(errPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let started = Date()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw CLIError.executableNotFound([executable]) }
        var status: Int32 = 0
        var usage = rusage()
        var peak = 0
        while true {
            if let mark = highWaterMark(pid) { peak = max(peak, mark) }
            let r = wait4(pid, &status, WNOHANG, &usage)
            if r == pid { break }
            if Date().timeIntervalSince(started) > timeout { kill(pid, SIGKILL); _ = wait4(pid, &status, 0, &usage); throw CLIError.timedOut(arguments) }
            usleep(2000)
        }
        let seconds = Date().timeIntervalSince(started)
        let stderr = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data(), as: UTF8.self)
        let signaled = status & 0x7f
        return MeasuredRun(status: signaled == 0 ? (status >> 8) & 0xff : -1, signal: signaled == 0 ? nil : signaled,
                           stderr: stderr, peakRSS: peak, maxRSSBound: usage.ru_maxrss * 1024, seconds: seconds)
    }
}
