// expat-baseline: raw libexpat throughput over the same bytes the importer reads (and, with --reader, the
// throughput of Wayfinder's OSMXMLReader alone, to split the import's time into parsing, reading and building).
//
// The input is opened with `OSMInput(path:)` (the importer's own decompression: plain, gzip or bzip2,
// told from the first bytes) and fed to libexpat exactly the way `OSMXMLReader` does it:
// XML_GetBuffer / XML_ParseBuffer in chunks of 1 MiB. The handlers do nothing, so the figure is what
// decompression plus tokenising costs; `Tools/bench-import` divides the import's throughput by it.
//
// Output: one line of `key=value` pairs on standard output (machine-readable), e.g.
//   mode=expat handlers=empty compression=bzip2 raw_bytes=4471518 xml_bytes=44899616 seconds=0.512 ...
// Timings are never asserted; this only measures.
//
// With OSM PBF input (told from the first bytes), only --reader applies: Wayfinder's OSMPBFReader (blocks decoded on
// every core) with the same counting handler, the PBF reading figure Tools/bench-import sets against osmium's.

import CExpat
import Foundation
import OSM
#if canImport(Glibc)
import Glibc
#endif

let usage = """
usage: expat-baseline INPUT [--handlers empty|count|none] [--decompress-only | --reader] [--chunk BYTES]

  INPUT              OSM XML: .osm, .osm.gz or .osm.bz2 (compression told from the first bytes); - reads stdin
  --handlers empty   start/end element handlers that do nothing (default; the benchmark baseline)
  --handlers count   handlers that count depth-2 <node>, <way> and <relation> elements (a cheap extra)
  --handlers none    no element handlers at all (expat still tokenises and checks well-formedness)
  --decompress-only  only decompress (read through OSMInput into a buffer and drop the bytes); no XML parsing
  --reader           run Wayfinder's own OSMXMLReader with a handler that only counts the elements: the cost of
                     the reader (attributes, numbers, tag strings) without the importer's collector and graph build;
                     for OSM PBF input (the only mode it takes), OSMPBFReader on every core with the same handler
  --chunk BYTES      bytes per XML_GetBuffer/XML_ParseBuffer call (default 1048576, as OSMXMLReader)

Prints one line: mode, handlers, compression, raw_bytes, xml_bytes, seconds, cpu_user, cpu_sys,
mb_per_s (decimal MB of XML per second), start_elements, nodes, ways, relations, peak_rss_bytes.
"""

func fail(_ message: String, code: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("expat-baseline: \(message)\n".utf8))
    exit(code)
}

enum HandlerMode: String { case empty, count, none }

var inputPath: String? = nil
var handlerMode = HandlerMode.empty
var decompressOnly = false
var readerMode = false
var chunkSize = 1 << 20

var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "-h", "--help":
        print(usage)
        exit(0)
    case "--handlers":
        guard let value = arguments.popFirst(), let mode = HandlerMode(rawValue: value) else {
            fail("--handlers takes empty, count or none\n\n\(usage)")
        }
        handlerMode = mode
    case "--decompress-only":
        decompressOnly = true
    case "--reader":
        readerMode = true
    case "--chunk":
        guard let value = arguments.popFirst(), let bytes = Int(value), bytes > 0, bytes <= Int(Int32.max) else {
            fail("--chunk takes a positive byte count\n\n\(usage)")
        }
        chunkSize = bytes
    default:
        if argument.hasPrefix("-") && argument != "-" { fail("unknown option \(argument)\n\n\(usage)") }
        if inputPath != nil { fail("takes one input file\n\n\(usage)") }
        inputPath = argument
    }
}
guard let inputPath else { fail("an input file is needed\n\n\(usage)") }
if decompressOnly && readerMode { fail("--decompress-only and --reader exclude each other") }

// MARK: Clocks and memory

func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}

func resourceUsage() -> rusage {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage
}

func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) * 1e-6 }

// MARK: Counting handlers

/// What the `count` handlers keep; reached through expat's user data pointer.
struct Counters {
    var depth = 0
    var startElements = 0
    var nodes = 0
    var ways = 0
    var relations = 0
}

/// The `empty` handlers: C function pointers that return at once (the cost of the callback itself).
let emptyStart: XML_StartElementHandler = { _, _, _ in }
let emptyEnd: XML_EndElementHandler = { _, _ in }

/// The `count` handlers: a depth counter and a first-byte test at depth 2, nothing allocated.
let countingStart: XML_StartElementHandler = { user, name, _ in
    let counters = user!.assumingMemoryBound(to: Counters.self)
    counters.pointee.depth += 1
    counters.pointee.startElements += 1
    guard counters.pointee.depth == 2, let name else { return }
    switch UInt8(bitPattern: name[0]) {
    case UInt8(ascii: "n") where name[1] == 0x6f && name[2] == 0x64 && name[3] == 0x65 && name[4] == 0: counters.pointee.nodes += 1
    case UInt8(ascii: "w") where name[1] == 0x61 && name[2] == 0x79 && name[3] == 0: counters.pointee.ways += 1
    case UInt8(ascii: "r") where name[1] == 0x65 && name[2] == 0x6c: counters.pointee.relations += 1
    default: break
    }
}
let countingEnd: XML_EndElementHandler = { user, _ in
    user!.assumingMemoryBound(to: Counters.self).pointee.depth -= 1
}

/// The `--reader` handler: counts what OSMXMLReader hands over and touches the tag count so nothing is optimised away.
final class CountingHandler: OSMElementHandler {
    var nodes = 0, ways = 0, relations = 0, tags = 0, wayNodes = 0, members = 0
    func handle(node: OSMNode) { nodes += 1; tags += node.tags.count }
    func handle(way: OSMWay) { ways += 1; tags += way.tags.count; wayNodes += way.nodeIDs.count }
    func handle(relation: OSMRelation) { relations += 1; tags += relation.tags.count; members += relation.members.count }
}

// MARK: Run

let input: OSMInput
do {
    input = try OSMInput(path: inputPath)
} catch {
    fail(error.description, code: 1)
}

let counters = UnsafeMutablePointer<Counters>.allocate(capacity: 1)
counters.initialize(to: Counters())
defer { counters.deallocate() }

let usageBefore = resourceUsage()
let started = monotonicSeconds()
var xmlBytes: Int64 = 0

let counting = CountingHandler()
if input.compression == .pbf {
    guard readerMode else { fail("OSM PBF input takes --reader only") }
    let reader = OSMPBFReader(source: input.source, name: input.file.name, handler: counting)
    do { try reader.read() } catch { fail(error.description, code: 1) }
    xmlBytes = input.file.bytesRead
} else if readerMode {
    let reader = OSMXMLReader(source: input.source, name: input.file.name, handler: counting)
    do { try reader.read(chunkSize: chunkSize) } catch { fail(error.description, code: 1) }
    xmlBytes = reader.xmlBytes
} else if decompressOnly {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 64)
    defer { buffer.deallocate() }
    while true {
        let count: Int
        do { count = try input.source.read(into: buffer) } catch { fail(error.description, code: 1) }
        if count == 0 { break }
        xmlBytes += Int64(count)
    }
} else {
    guard let parser = XML_ParserCreate(nil) else { fail("cannot create an XML parser", code: 1) }
    defer { XML_ParserFree(parser) }
    XML_SetUserData(parser, UnsafeMutableRawPointer(counters))
    switch handlerMode {
    case .empty: XML_SetElementHandler(parser, emptyStart, emptyEnd)
    case .count: XML_SetElementHandler(parser, countingStart, countingEnd)
    case .none: break
    }
    while true {
        guard let buffer = XML_GetBuffer(parser, Int32(chunkSize)) else { fail("out of memory for the XML buffer", code: 1) }
        let count: Int
        do {
            count = try input.source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: chunkSize))
        } catch {
            fail(error.description, code: 1)
        }
        xmlBytes += Int64(count)
        if XML_ParseBuffer(parser, Int32(count), count == 0 ? 1 : 0) != XML_STATUS_OK {
            let code = XML_GetErrorCode(parser)
            let message = XML_ErrorString(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
            fail("\(inputPath):\(XML_GetCurrentLineNumber(parser)):\(XML_GetCurrentColumnNumber(parser) + 1): malformed XML: \(message)", code: 1)
        }
        if count == 0 { break }
    }
}

let elapsed = monotonicSeconds() - started
let usageAfter = resourceUsage()
let peakRSS = Int64(usageAfter.ru_maxrss) * 1024
let c = counters.pointee

var fields: [(String, String)] = [
    ("mode", decompressOnly ? "decompress" : readerMode ? "reader" : "expat"),
    ("handlers", decompressOnly || readerMode ? "-" : handlerMode.rawValue),
    ("compression", input.compression == .none ? "none" : input.compression == .pbf ? "pbf" : input.compression.rawValue),
    ("raw_bytes", "\(input.file.bytesRead)"),
    ("xml_bytes", "\(xmlBytes)"),
    ("seconds", String(format: "%.6f", elapsed)),
    ("cpu_user", String(format: "%.6f", seconds(usageAfter.ru_utime) - seconds(usageBefore.ru_utime))),
    ("cpu_sys", String(format: "%.6f", seconds(usageAfter.ru_stime) - seconds(usageBefore.ru_stime))),
    ("mb_per_s", String(format: "%.3f", elapsed > 0 ? Double(xmlBytes) / elapsed / 1e6 : 0)),
    ("chunk", "\(chunkSize)"),
]
if readerMode {
    fields += [("nodes", "\(counting.nodes)"), ("ways", "\(counting.ways)"), ("relations", "\(counting.relations)"),
               ("tags", "\(counting.tags)"), ("way_nodes", "\(counting.wayNodes)"), ("members", "\(counting.members)")]
} else if handlerMode == .count && !decompressOnly {
    fields += [("start_elements", "\(c.startElements)"), ("nodes", "\(c.nodes)"), ("ways", "\(c.ways)"), ("relations", "\(c.relations)")]
}
fields.append(("peak_rss_bytes", "\(peakRSS)"))
print(fields.map { "\($0.0)=\($0.1)" }.joined(separator: " "))
