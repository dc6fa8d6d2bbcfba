import Foundation
#if canImport(Glibc)
import Glibc
#endif

// The entry of `wayfinder-fuzz` (its C `main` calls this): under libFuzzer (built by Tools/fuzz with coverage
// instrumentation and -DFUZZING) it runs the chosen target; in an ordinary build it replays files through it.

let driverUsage = """
usage: wayfinder-fuzz TARGET FILE_OR_DIR…     runs the target over each file (the corpus, crash inputs)
       WAYFINDER_FUZZ_TARGET=TARGET wayfinder-fuzz [libFuzzer options] [CORPUS_DIR…]   (the fuzzing build of Tools/fuzz)

targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))
"""

#if FUZZING
/// The target of this fuzzing process, from $WAYFINDER_FUZZ_TARGET (libFuzzer owns the command line).
nonisolated(unsafe) var fuzzTarget = FuzzTarget.xml

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    let name = ProcessInfo.processInfo.environment["WAYFINDER_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(Data("wayfinder-fuzz: set WAYFINDER_FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
        exit(2)
    }
    guard FuzzTarget.prepare() else {
        FileHandle.standardError.write(Data("wayfinder-fuzz: cannot make the Monaco service (Data/monaco.osm.gz not found?)\n".utf8))
        exit(3)
    }
    fuzzTarget = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzzTarget.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
#endif

/// `wayfinder-fuzz TARGET …`: the process's exit status.
@_cdecl("wayfinder_fuzz_main")
public func wayfinderFuzzMain(_ count: Int32, _ values: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    let arguments = (0..<Int(count)).map { String(cString: values[$0]!) }
    guard arguments.count >= 2, let chosen = FuzzTarget(rawValue: arguments[1]) else {
        FileHandle.standardError.write(Data((driverUsage + "\n").utf8))
        return 2
    }
    guard FuzzTarget.prepare() else {
        FileHandle.standardError.write(Data("wayfinder-fuzz: cannot make the Monaco service (Data/monaco.osm.gz not found?)\n".utf8))
        return 3
    }
    var files: [URL] = []
    for path in arguments.dropFirst(2) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            FileHandle.standardError.write(Data("wayfinder-fuzz: no such file: \(path)\n".utf8))
            return 3
        }
        if isFolder.boolValue {
            let items = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            files += items.sorted().map { URL(fileURLWithPath: path).appendingPathComponent($0) }
        } else {
            files.append(URL(fileURLWithPath: path))
        }
    }
    for file in files {
        guard let data = try? Data(contentsOf: file) else { continue }
        data.withUnsafeBytes { chosen.run($0) }
    }
    print("wayfinder-fuzz \(chosen.rawValue): \(files.count) inputs replayed, no crash")
    return 0
}
