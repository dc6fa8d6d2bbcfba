import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// What a finished `wayfinder` run left behind.
struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var arguments: [String]
    /// Everything the process wrote to its terminal, when run with a pseudo-terminal.
    var terminal: String = ""
}

enum CLIError: Error, CustomStringConvertible {
    case executableNotFound([String])
    case timedOut([String])
    var description: String {
        switch self {
        case let .executableNotFound(places): return "wayfinder executable not found in \(places)"
        case let .timedOut(arguments): return "wayfinder \(arguments.joined(separator: " ")) did not finish in time"
        }
    }
}

/// The built `wayfinder` product: it sits in the products folder, next to the test bundle.
func wayfinderExecutable() throws -> URL {
    var folders: [URL] = []
    // On Linux the .xctest bundle is itself an executable in the products folder; on macOS it is a bundle inside it.
    for bundle in [Bundle.main, Bundle(for: CLITestCase.self)] {
        let url = bundle.bundleURL
        folders.append(url.pathExtension == "xctest" ? url.deletingLastPathComponent() : url)
    }
    if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
    folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
    for folder in folders {
        let candidate = folder.appendingPathComponent("wayfinder")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw CLIError.executableNotFound(folders.map(\.path))
}

/// A test case that runs the `wayfinder` executable in a fresh temporary folder.
class CLITestCase: XCTestCase {
    /// A folder for this test's files, removed afterwards.
    var temp: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        signal(SIGPIPE, SIG_IGN)
        temp = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let temp {
            // Give back permissions taken away by a test so the folder can be removed.
            if let items = FileManager.default.enumerator(atPath: temp.path) {
                for case let item as String in items { chmod(temp.appendingPathComponent(item).path, 0o755) }
            }
            try? FileManager.default.removeItem(at: temp)
        }
        try super.tearDownWithError()
    }

    /// A path inside this test's temporary folder.
    func tmp(_ name: String) -> String { temp.appendingPathComponent(name).path }

    /// How `stdin` is provided to a run.
    enum Input {
        case none
        /// The bytes are written into a pipe while the process runs.
        case pipe(Data)
    }

    /// Runs `wayfinder arguments` in `directory`, with `environment` added to this process's; standard output and
    /// error go to files (never a terminal) unless `terminalStderr`, which gives standard error a pseudo-terminal.
    @discardableResult
    func run(_ arguments: [String], input: Input = .none, directory: URL? = nil, terminalStderr: Bool = false,
             timeout: TimeInterval = 60, environment extra: [String: String] = [:]) throws -> RunResult {
        let process = Process()
        process.executableURL = try wayfinderExecutable()
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? temp
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = temp.appendingPathComponent("xdg-cache").path
        environment.merge(extra) { $1 }
        process.environment = environment

        let id = UUID().uuidString
        let outURL = temp.appendingPathComponent(".stdout-\(id)"), errURL = temp.appendingPathComponent(".stderr-\(id)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL), errHandle = try FileHandle(forWritingTo: errURL)
        defer {
            try? outHandle.close()
            try? errHandle.close()
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        process.standardOutput = outHandle

        var terminal: PseudoTerminal? = nil
        if terminalStderr {
            guard let pty = PseudoTerminal() else { throw XCTSkip("no pseudo-terminal available") }
            terminal = pty
            process.standardError = pty.secondaryHandle
        } else {
            process.standardError = errHandle
        }

        var stdinPipe: Pipe? = nil
        switch input {
        case .none: process.standardInput = FileHandle.nullDevice
        case .pipe: stdinPipe = Pipe(); process.standardInput = stdinPipe
        }

        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        terminal?.closeSecondary()
        if case let .pipe(data) = input, let stdinPipe {
            // The child may stop reading early (an error); a broken pipe is not a test failure.
            try? stdinPipe.fileHandleForWriting.write(contentsOf: data)
            try? stdinPipe.fileHandleForWriting.close()
        }
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw CLIError.timedOut(arguments)
        }
        process.waitUntilExit()
        return RunResult(status: process.terminationStatus,
                         stdout: String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self),
                         stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self),
                         arguments: arguments,
                         terminal: terminal?.collected() ?? "")
    }

    /// An executable on PATH, or nil.
    func tool(_ name: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Runs an outside program, with `environment` added to this process's; returns status and
    /// standard output + error.
    func external(_ path: String, _ arguments: [String], environment: [String: String] = [:],
                  timeout: TimeInterval = 120) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let outURL = temp.appendingPathComponent("external-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        let handle = try FileHandle(forWritingTo: outURL)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        if process.isRunning { process.terminate(); throw CLIError.timedOut([path] + arguments) }
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOf: outURL, encoding: .utf8)) ?? "")
    }

    /// Monaco imported once into `folder` (a test class's own, removed in its class tear-down): its graph's path.
    func monacoGraph(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("monaco.wfg").path
        if FileManager.default.fileExists(atPath: path) { return path }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try importMonaco(to: path)
        return path
    }

    /// Imports Monaco into `path` (quietly) and checks it worked.
    func importMonaco(to path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try run(["import", sample("monaco.osm.gz"), "-o", path, "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), file: file, line: line)
    }
}

/// A pseudo-terminal whose secondary side becomes a child's standard error; the primary side is drained as it goes.
final class PseudoTerminal: @unchecked Sendable {
    private let primary: Int32
    private var secondary: Int32
    let secondaryHandle: FileHandle
    private let lock = NSLock()
    private var buffer = Data()
    private let done = DispatchSemaphore(value: 0)

    // posix_openpt and friends sit behind _XOPEN_SOURCE in glibc's headers, so Swift does not import them: look them up.
    private typealias OpenPT = @convention(c) (Int32) -> Int32
    private typealias PTControl = @convention(c) (Int32) -> Int32
    private typealias PTSName = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32

    private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
        guard let address = dlsym(nil, name) else { return nil }
        return unsafeBitCast(address, to: type)
    }

    init?() {
        guard let openpt = Self.symbol("posix_openpt", as: OpenPT.self), let grantpt = Self.symbol("grantpt", as: PTControl.self),
              let unlockpt = Self.symbol("unlockpt", as: PTControl.self), let ptsname = Self.symbol("ptsname_r", as: PTSName.self)
        else { return nil }
        let primary = openpt(O_RDWR | O_NOCTTY)
        guard primary >= 0 else { return nil }
        var name = [CChar](repeating: 0, count: 128)
        guard grantpt(primary) == 0, unlockpt(primary) == 0, ptsname(primary, &name, name.count) == 0 else { close(primary); return nil }
        let secondary = open(String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), O_RDWR | O_NOCTTY)
        guard secondary >= 0 else { close(primary); return nil }
        self.primary = primary
        self.secondary = secondary
        secondaryHandle = FileHandle(fileDescriptor: secondary, closeOnDealloc: false)
        let thread = Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = chunk.withUnsafeMutableBytes { Glibc.read(primary, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break } // EIO once every secondary descriptor is closed
                lock.lock(); buffer.append(contentsOf: chunk[0..<n]); lock.unlock()
            }
            done.signal()
        }
        thread.start()
    }

    /// Closes this process's copy of the secondary side (the child keeps its own).
    func closeSecondary() {
        if secondary >= 0 { close(secondary); secondary = -1 }
    }

    /// Everything written to the terminal, once the child has exited.
    func collected() -> String {
        closeSecondary()
        _ = done.wait(timeout: .now() + 10)
        lock.lock(); defer { lock.unlock() }
        return String(decoding: buffer, as: UTF8.self)
    }

    deinit {
        closeSecondary()
        close(primary)
    }
}
