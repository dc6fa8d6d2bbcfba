import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
