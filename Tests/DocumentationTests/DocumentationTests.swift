// The examples of README.md and docs/*.md, run as they are written (issue 11: a README whose every example runs).
//
// The convention, by a fenced code block's info string:
//
// - ```sh       is run with `bash -e` and must exit 0; its output is not compared.
// - ```console  is a transcript. A line starting with `$ ` is a command (run on its own with `bash -c`); the lines
//               after it, up to the next `$ ` line, are what it prints, standard output and standard error together.
//               They are compared line by line, trailing spaces and trailing blank lines ignored; `…` stands for any
//               text within a line (for figures that vary: wall time, peak memory, "computed in 0.3 ms").
//               A last line `[exit N]` says the command exits with status N; without it the command must exit 0.
// - ```python   is run with `python3` and must exit 0; its output is not compared.
// - anything else (```swift, ```yaml, ```json, ```text, no info string) is not run here; the ```swift blocks are
//   compiled by a test of their own.
//
// The README's "Set up" section is the set-up itself (the release build and the whole test suite), so it is not run:
// the examples assume it is done, that is `wayfinder` on PATH and the repository root as the current folder.
// Here the current folder is a fresh scratch folder per document holding a `Data` symlink to the repository's Data,
// and PATH starts with the folder of the `wayfinder` built for this test run (not an installed one). A document's
// blocks run in order in that one folder, so later examples use the files earlier ones made. Every block (every
// console command) runs in a process group of its own that is stopped when it ends: a server started with `&`
// lives until the end of its block.
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// The package's root folder, found from this file's path.

/// How long one block (or one console command) may run.
private let runTimeout: TimeInterval = 300

final class DocumentationTests: XCTestCase {
    /// README.md's examples.
    func testReadmeExamplesRun() throws {
        try runDocument("README.md")
    }

    /// The examples of every page in docs/.
    func testDocsExamplesRun() throws {
        let pages = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted()
        XCTAssertFalse(pages.isEmpty, "no docs/*.md found")
        for page in pages { try runDocument("docs/\(page)") }
    }

    /// The convention itself: which blocks run, how transcripts are read and matched.
    func testConvention() throws {
        let text = """
        # T
        ## Set up
        ```sh
        swift test
        ```
        ## Usage
        ```sh
        echo hi
        ```
        ```swift
        print(1)
        ```
        ```console
        $ wayfinder eta x
        a … b
        [exit 3]
        $ true
        ```
        ```python
        print(2)
        ```
        """
        let blocks = DocumentBlock.parse(text, file: "T.md")
        XCTAssertEqual(blocks.map(\.language), ["sh", "sh", "swift", "console", "python"])
        XCTAssertEqual(blocks.map(\.line), [3, 7, 10, 13, 19])
        XCTAssertEqual(blocks.filter(\.isRun).map(\.language), ["sh", "console", "python"])
        let commands = try TranscriptCommand.parse(blocks[3])
        XCTAssertEqual(commands.map(\.command), ["wayfinder eta x", "true"])
        XCTAssertEqual(commands.map(\.line), [14, 17])
        XCTAssertEqual(commands.map(\.status), [3, 0])
        XCTAssertEqual(commands[0].expected, ["a … b"])
        XCTAssertEqual(commands[1].expected, [])
        XCTAssertTrue(lineMatches("time … s, peak memory … MB", "time 0.95 s, peak memory 43.1 MB"))
        XCTAssertTrue(lineMatches("…", ""))
        XCTAssertTrue(lineMatches("a…a", "aa"))
        XCTAssertFalse(lineMatches("a…a", "a"))
        XCTAssertFalse(lineMatches("time … s", "time 0.95 ms"))
        XCTAssertFalse(lineMatches("exact", "exactly"))
        XCTAssertEqual(outputLines("a  \nb\n\n\n"), ["a", "b"])
    }

    // MARK: Running a document

    private func runDocument(_ name: String) throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(name), encoding: .utf8)
        let blocks = DocumentBlock.parse(text, file: name)
        for block in blocks where ["bash", "shell", "zsh", "shell-session", "sh-session"].contains(block.language) {
            XCTFail("\(name):\(block.line): a ```\(block.language) block is not run; write ```sh (a script) or ```console (a transcript)")
        }
        let runnable = blocks.filter(\.isRun)
        guard !runnable.isEmpty else { return }

        let session = try ScratchSession(document: name)
        defer { session.remove() }
        let started = Date()
        for block in runnable {
            // Examples with a server take a lock, so that doctests running at the same time (`swift test --parallel`,
            // other checkouts) do not start servers on the same port.
            let serverLock = block.body.contains("serve") ? ServerLock() : nil
            defer { serverLock?.release() }
            try waitForPorts(of: block)
            switch block.language {
            case "sh":
                let script = try session.write(block.body, as: "block-\(block.line).sh")
                let run = try session.run(["/bin/bash", "-e", script])
                if run.status != 0 {
                    XCTFail("\(name):\(block.line): the ```sh block \(run.describedStatus); it printed:\n\(run.output)")
                }
            case "python":
                let script = try session.write(block.body, as: "block-\(block.line).py")
                let run = try session.run(["/bin/bash", "-c", "exec python3 \"$1\"", "bash", script])
                if run.status != 0 {
                    XCTFail("\(name):\(block.line): the ```python block \(run.describedStatus); it printed:\n\(run.output)")
                }
            case "console":
                let commands: [TranscriptCommand]
                do { commands = try TranscriptCommand.parse(block) } catch {
                    XCTFail("\(error)")
                    continue
                }
                for command in commands {
                    let run = try session.run(["/bin/bash", "-c", command.command])
                    let actual = outputLines(run.output)
                    let outputMatches = actual.count == command.expected.count
                        && zip(command.expected, actual).allSatisfy { lineMatches($0, $1) }
                    if !outputMatches || run.status != command.status {
                        var expected = command.expected
                        if command.status != 0 { expected.append("[exit \(command.status)]") }
                        var shown = actual
                        if run.status != 0 { shown.append(run.timedOut ? "[timed out after \(Int(runTimeout)) s]" : "[exit \(run.status)]") }
                        let difference = firstDifference(expected, shown).map { "first difference at output line \($0 + 1)\n" } ?? ""
                        XCTFail("""
                        \(name):\(command.line) (```console block at line \(block.line)): `$ \(command.command)` \
                        does not print what the document shows
                        \(difference)--- expected (\(name):\(command.line + 1)…)
                        \(expected.joined(separator: "\n"))
                        --- actual
                        \(shown.joined(separator: "\n"))
                        ---
                        """)
                    }
                }
            default:
                break
            }
        }
        print("\(name): \(runnable.count) example blocks ran in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
    }

    /// Waits (a little) until the local ports a block's server listens on are free, so that a server left by someone
    /// else is reported as such instead of answering the example's requests.
    private func waitForPorts(of block: DocumentBlock) throws {
        guard block.body.contains("serve") else { return }
        let regex = try NSRegularExpression(pattern: #"127\.0\.0\.1:([0-9]{2,5})"#)
        let body = block.body as NSString
        var ports = Set<UInt16>()
        for match in regex.matches(in: block.body, range: NSRange(location: 0, length: body.length)) {
            if let port = UInt16(body.substring(with: match.range(at: 1))) { ports.insert(port) }
        }
        for port in ports.sorted() {
            let deadline = Date().addingTimeInterval(15)
            while !portIsFree(port) && Date() < deadline { usleep(100_000) }
            if !portIsFree(port) {
                XCTFail("\(block.file):\(block.line): port \(port) on 127.0.0.1 is taken by another program, so the example's server cannot listen there")
            }
        }
    }
}

// MARK: Blocks and transcripts

/// A fenced code block of a Markdown document.
struct DocumentBlock {
    var file: String
    /// The line (from 1) of the opening fence.
    var line: Int
    /// The info string's first word ("" for none).
    var language: String
    var lines: [String]
    /// In the README's "Set up" section (the set-up itself, not run).
    var inSetUp: Bool

    var body: String { lines.joined(separator: "\n") + "\n" }
    var isRun: Bool { !inSetUp && ["sh", "console", "python"].contains(language) }

    static func parse(_ text: String, file: String) -> [DocumentBlock] {
        var blocks: [DocumentBlock] = []
        var section = ""
        var open: DocumentBlock? = nil
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if var block = open {
                if line.trimmingCharacters(in: .whitespaces) == "```" {
                    blocks.append(block)
                    open = nil
                } else {
                    block.lines.append(line)
                    open = block
                }
            } else if line.hasPrefix("```") {
                let info = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
                let language = String(info.split(separator: " ").first ?? "")
                open = DocumentBlock(file: file, line: index + 1, language: language, lines: [], inSetUp: section == "Set up")
            } else if line.hasPrefix("## ") {
                section = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
            }
        }
        return blocks
    }
}

/// One `$ ` command of a console transcript and what it should print.
struct TranscriptCommand {
    var line: Int
    var command: String
    var expected: [String]
    var status: Int32

    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ block: DocumentBlock) throws -> [TranscriptCommand] {
        var commands: [TranscriptCommand] = []
        for (offset, line) in block.lines.enumerated() {
            if line.hasPrefix("$ ") {
                commands.append(TranscriptCommand(line: block.line + 1 + offset, command: String(line.dropFirst(2)), expected: [], status: 0))
            } else if commands.isEmpty {
                if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                throw ParseError(description: "\(block.file):\(block.line + 1 + offset): a ```console block must start with a `$ ` command line")
            } else {
                commands[commands.count - 1].expected.append(line)
            }
        }
        for index in commands.indices {
            var expected = outputLines(commands[index].expected.joined(separator: "\n"))
            if let last = expected.last, last.hasPrefix("[exit "), last.hasSuffix("]"), let status = Int32(last.dropFirst(6).dropLast()) {
                commands[index].status = status
                expected.removeLast()
            }
            commands[index].expected = expected
        }
        return commands
    }
}

/// Output as compared: lines without their trailing white space, trailing blank lines dropped.
func outputLines(_ text: String) -> [String] {
    var lines = text.components(separatedBy: "\n").map { line -> String in
        var line = Substring(line)
        while let last = line.last, last == " " || last == "\t" || last == "\r" { line = line.dropLast() }
        return String(line)
    }
    while lines.last == "" { lines.removeLast() }
    return lines
}

/// Whether an output line matches a document's line, where `…` stands for any text within the line.
func lineMatches(_ pattern: String, _ actual: String) -> Bool {
    let parts = pattern.components(separatedBy: "…")
    guard parts.count > 1 else { return pattern == actual }
    var rest = Substring(actual)
    guard rest.hasPrefix(parts[0]) else { return false }
    rest = rest.dropFirst(parts[0].count)
    for middle in parts.dropFirst().dropLast() where !middle.isEmpty {
        guard let range = rest.range(of: middle) else { return false }
        rest = rest[range.upperBound...]
    }
    return rest.hasSuffix(parts[parts.count - 1])
}

private func firstDifference(_ expected: [String], _ actual: [String]) -> Int? {
    for index in 0..<max(expected.count, actual.count) {
        guard index < expected.count, index < actual.count, lineMatches(expected[index], actual[index]) else { return index }
    }
    return nil
}

// MARK: Processes

/// The scratch folder of one document, and a folder beside it for the runner's scripts and output files.
private final class ScratchSession {
    let scratch: URL
    let runner: URL
    let environment: [String]
    private var runs = 0

    init(document: String) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-doctest-\(UUID().uuidString)")
        scratch = base.appendingPathComponent("work")
        runner = base.appendingPathComponent("runner")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: runner, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: scratch.appendingPathComponent("Data"), withDestinationURL: packageRoot.appendingPathComponent("Data"))
        var variables = ProcessInfo.processInfo.environment
        variables["PATH"] = try wayfinderFolder().path + ":" + (variables["PATH"] ?? "/usr/bin:/bin")
        variables["XDG_CACHE_HOME"] = runner.appendingPathComponent("cache").path
        environment = variables.map { "\($0.key)=\($0.value)" }
    }

    func remove() {
        try? FileManager.default.removeItem(at: scratch.deletingLastPathComponent())
    }

    func write(_ text: String, as name: String) throws -> String {
        let url = runner.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    struct Run {
        var status: Int32
        var timedOut: Bool
        var output: String
        var describedStatus: String {
            timedOut ? "did not finish within \(Int(runTimeout)) s" : "exited with status \(status)"
        }
    }

    /// Runs `arguments` in the scratch folder in a new process group, standard output and error into one file, no
    /// input; when it has exited, stops whatever it left running in its group.
    func run(_ arguments: [String]) throws -> Run {
        runs += 1
        let outputPath = runner.appendingPathComponent("output-\(runs)").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { throw SpawnError(message: "posix_spawn_file_actions_addchdir_np is missing") }
        typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        _ = unsafeBitCast(symbol, to: AddChdir.self)(&actions, scratch.path)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A new process group (to stop servers left running), default signal handling and no blocked signals
        // (the test process may ignore SIGPIPE, which children would inherit).
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw SpawnError(message: "cannot start \(arguments[0]): \(String(cString: strerror(spawned)))") }

        var status: Int32 = 0
        var timedOut = false
        let deadline = Date().addingTimeInterval(runTimeout)
        while true {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid { break }
            if waited < 0 && errno != EINTR { throw SpawnError(message: "waitpid: \(String(cString: strerror(errno)))") }
            if Date() > deadline {
                timedOut = true
                kill(-pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                break
            }
            usleep(10_000)
        }
        stopGroup(pid)

        let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let output = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: outputPath))) ?? Data(), as: UTF8.self)
        return Run(status: timedOut ? -1 : exitStatus, timedOut: timedOut, output: output)
    }

    /// Stops what is left of process group `group` (background servers): SIGTERM, then SIGKILL after 10 s.
    private func stopGroup(_ group: pid_t) {
        guard !liveMembers(of: group).isEmpty else { return }
        kill(-group, SIGTERM)
        for signal in [SIGTERM, SIGKILL] {
            if signal == SIGKILL { kill(-group, SIGKILL) }
            let deadline = Date().addingTimeInterval(signal == SIGTERM ? 10 : 5)
            while Date() < deadline {
                if liveMembers(of: group).isEmpty { return }
                usleep(20_000)
            }
        }
    }

    struct SpawnError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

/// The processes of group `group` that have not exited (zombies waiting for their reaper do not count).
private func liveMembers(of group: pid_t) -> [pid_t] {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
    var members: [pid_t] = []
    for entry in entries {
        guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { continue }
        // After "pid (comm)": state, parent, process group, …
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 2, fields[0] != "Z", fields[0] != "X", pid_t(fields[2]) == group else { continue }
        members.append(pid)
    }
    return members
}

/// An exclusive lock, across processes, for the examples that start servers.
private final class ServerLock {
    private var fd: Int32

    init() {
        fd = open(FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-doctest-servers.lock").path, O_RDWR | O_CREAT, 0o666)
        if fd >= 0 { _ = flock(fd, LOCK_EX) }
    }

    func release() {
        if fd >= 0 { _ = flock(fd, LOCK_UN); close(fd); fd = -1 }
    }

    deinit { release() }
}

/// Whether nothing listens on 127.0.0.1:`port`.
private func portIsFree(_ port: UInt16) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return true }
    defer { close(fd) }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    return bound == 0
}

/// The folder of the `wayfinder` product built with this test bundle (the products folder, next to the bundle).
private func wayfinderFolder() throws -> URL {
    var folders: [URL] = []
    // On Linux the .xctest bundle is itself an executable in the products folder; on macOS it is a bundle inside it.
    for bundle in [Bundle.main, Bundle(for: DocumentationTests.self)] {
        let url = bundle.bundleURL
        folders.append(url.pathExtension == "xctest" ? url.deletingLastPathComponent() : url)
    }
    if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
    folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
    for folder in folders where FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("wayfinder").path) {
        return folder
    }
    throw ScratchSession.SpawnError(message: "the built wayfinder executable is not in \(folders.map(\.path))")
}
