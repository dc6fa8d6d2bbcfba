import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// `wayfinder import` and files outside the job: outputs that are not regular files are refused, temporary files go
/// on SIGINT and SIGTERM, and those of killed imports are swept by the next import into the folder. Hostile GTFS
/// feeds end in clear errors within stated memory limits (peak RSS of the child: its VmHWM, polled until wait4 reaps it).
final class ImportSafetyTests: CLITestCase {
    func fileType(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    /// Hidden temporary files of process `pid` in the test folder.
    func temporaries(of pid: pid_t) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: temp.path)) ?? []).filter { $0.hasSuffix("-\(pid)") }.sorted()
    }

    func testOutputsThatAreNotRegularFilesAreRefused() throws {
        XCTAssertEqual(mkfifo(tmp("fifo"), 0o644), 0)
        try FileManager.default.createDirectory(atPath: tmp("folder"), withIntermediateDirectories: false)
        XCTAssertEqual(symlink(tmp("fifo"), tmp("link-to-fifo")), 0)
        var outputs = [("fifo", "a FIFO"), ("folder", "a folder"), ("link-to-fifo", "a FIFO")]
        // A device node of its own (never the real /dev/full), where the test may make one.
        if mknod(tmp("full"), S_IFCHR | 0o644, dev_t((1 << 8) | 7)) == 0 { outputs.append(("full", "a character device")) }
        for (name, kind) in outputs {
            let before = fileType(tmp(name))
            for extra in [[], ["--gtfs", sample("terre-haute-gtfs.zip")]] {
                let result = try run(["import", sample("monaco.osm.gz"), "-o", tmp(name), "--quiet", "--no-ch"] + extra)
                XCTAssertEqual(result.status, 4, "\(name): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("\(tmp(name)) exists and is \(kind), not a regular file: refusing to replace it"), result.stderr)
                XCTAssertEqual(fileType(tmp(name)), before, "\(name) was replaced")
            }
        }
        // A regular file is replaced as before.
        try Data("old".utf8).write(to: URL(fileURLWithPath: tmp("old.wfg")))
        XCTAssertEqual(try run(["import", sample("monaco.osm.gz"), "-o", tmp("old.wfg"), "--quiet", "--no-ch"]).status, 0)
        XCTAssertGreaterThan((try FileManager.default.attributesOfItem(atPath: tmp("old.wfg"))[.size] as? Int) ?? 0, 1000)
    }

    /// Starts an import and waits until the temporary files `.NAME.KIND-PID` of every kind in `kinds` stand beside
    /// the output NAME.
    func startImport(_ output: String, extra: [String] = [], waitingFor kinds: [String] = ["base", "tmp"]) throws -> Process {
        let process = Process()
        process.executableURL = try wayfinderExecutable()
        process.arguments = ["import", sample("monaco.osm.gz"), "-o", output, "--quiet"] + extra
        process.currentDirectoryURL = temp
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        let name = (output as NSString).lastPathComponent, pid = process.processIdentifier
        while Date() < deadline && process.isRunning && !kinds.allSatisfy({ temporaries(of: pid).contains(".\(name).\($0)-\(pid)") }) {
            usleep(2000)
        }
        return process
    }

    func testSignalsRemoveTheTemporaryFiles() throws {
        for (signal, name) in [(SIGTERM, "term"), (SIGINT, "int")] {
            let process = try startImport(tmp("\(name).wfg"))
            let pid = process.processIdentifier
            XCTAssertTrue(process.isRunning, "the import ended before it could be interrupted")
            XCTAssertFalse(temporaries(of: pid).isEmpty)
            kill(pid, signal)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal, name)
            XCTAssertEqual(process.terminationStatus, signal, name)
            XCTAssertEqual(temporaries(of: pid), [], "\(name) left temporary files")
            XCTAssertFalse(FileManager.default.fileExists(atPath: tmp("\(name).wfg")))
        }
        // With --gtfs, the roads file too: the import is stopped (SIGSTOP) as soon as its roads file stands, while the
        // transit step runs, then terminated. (The transit step is short, so a run that finished first is tried again.)
        var caught = false
        for attempt in 0..<5 where !caught {
            let output = tmp("transit-\(attempt).wfg")
            let process = try startImport(output, extra: ["--gtfs", sample("terre-haute-gtfs.zip")], waitingFor: ["roads"])
            let pid = process.processIdentifier
            kill(pid, SIGSTOP)
            if process.isRunning && temporaries(of: pid).contains(where: { $0.contains(".roads-") }) {
                caught = true
                kill(pid, SIGTERM)
                kill(pid, SIGCONT)
            }
            process.waitUntilExit()
            XCTAssertEqual(temporaries(of: pid), [], "the import left temporary files")
            if caught { XCTAssertFalse(FileManager.default.fileExists(atPath: output)) }
        }
        XCTAssertTrue(caught, "no import was caught in its transit step in 5 tries")
    }

    func testTemporaryFilesOfDeadImportsAreSweptByTheNextImport() throws {
        let killed = try startImport(tmp("m.wfg"))
        let pid = killed.processIdentifier
        kill(pid, SIGKILL)
        killed.waitUntilExit()
        let left = temporaries(of: pid)
        XCTAssertTrue(left.contains(".m.wfg.base-\(pid)") && left.contains(".m.wfg.tmp-\(pid)"), "\(left)")
        // Not swept: a live process's file (this test's), a dead PID's file that is no graph file, other names.
        let live = tmp(".other.wfg.tmp-\(getpid())"), notes = tmp(".notes.tmp-\(pid)"), plain = tmp("m.wfg.tmp-\(pid)")
        for path in [live, plain] { try Data(count: 4096).write(to: URL(fileURLWithPath: path)) }
        try Data("my notes".utf8).write(to: URL(fileURLWithPath: notes))
        let next = try run(["import", sample("monaco.osm.gz"), "-o", tmp("other.wfg"), "--quiet", "--no-ch"])
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertEqual(temporaries(of: pid), [".notes.tmp-\(pid)", "m.wfg.tmp-\(pid)"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: live))
    }

    // MARK: - GTFS feeds within limits (memory stated per test, measured on the child)

    /// The bundled Terre Haute feed rezipped with `change` applied to its members.
    func terreHauteFeed(_ name: String, _ change: (inout [TestZip.Entry]) -> Void) throws -> String {
        var entries = try TestZip.members(of: sample("terre-haute-gtfs.zip")).map { TestZip.Entry(name: $0.name, data: $0.data) }
        change(&entries)
        try Data(TestZip.build(entries)).write(to: URL(fileURLWithPath: tmp(name)))
        return tmp(name)
    }

    func importTerreHaute(_ feed: String, _ extra: [String] = []) throws -> MeasuredRun {
        try runMeasured(["import", sample("terre-haute.osm.gz"), "--gtfs", feed, "-o", tmp("th.wfg"), "--quiet", "--no-ch", "--no-landmarks"] + extra)
    }

    func testZipBombEndsInAClearErrorWithinBoundedMemory() throws {
        // stop_times.txt: 256 MiB of one row, about 650 kB deflated; the road import alone peaks near 60 MB.
        let row = Array("1,08:00:00,08:00:00,1,1\n".utf8)
        let chunk = Array([[UInt8]](repeating: row, count: (1 << 20) / row.count).joined())
        let feed = try terreHauteFeed("bomb.zip") { entries in
            let i = entries.firstIndex { $0.name == "stop_times.txt" }!
            entries[i] = TestZip.Entry(name: "stop_times.txt", data: chunk, repeats: 256)
        }
        let limit = 150 << 20
        let refused = try importTerreHaute(feed)
        XCTAssertEqual(refused.status, 3, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("stop_times.txt: its directory declares 256.0 MiB uncompressed from"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains(":1 allowed: a zip bomb, or a corrupt directory (raise it with import --gtfs-max-ratio)"), refused.stderr)
        print("refused: peak RSS \(refused.peakRSS >> 20) MiB (wait4 bound \(refused.maxRSSBound >> 20) MiB), \(String(format: "%.2f", refused.seconds)) s")
        XCTAssertLessThan(refused.peakRSS, limit, "peak RSS \(refused.peakRSS >> 20) MiB")
        XCTAssertLessThan(refused.seconds, 30)
        // With the ratio check off, the member-size cap stops it before inflating.
        let capped = try importTerreHaute(feed, ["--gtfs-max-ratio", "100000", "--gtfs-max-member-size", "64M"])
        XCTAssertEqual(capped.status, 3, capped.stderr)
        XCTAssertTrue(capped.stderr.contains("more than the 64 MiB a feed file may have (raise it with import --gtfs-max-member-size)"), capped.stderr)
        print("capped: peak RSS \(capped.peakRSS >> 20) MiB (wait4 bound \(capped.maxRSSBound >> 20) MiB), \(String(format: "%.2f", capped.seconds)) s")
        XCTAssertLessThan(capped.peakRSS, limit, "peak RSS \(capped.peakRSS >> 20) MiB")
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp("th.wfg")))
    }

    /// The issue's zip that declares far more than it holds: nothing is allocated by the declared size.
    func testDeclaredSizesAreNotTrusted() throws {
        let feed = try terreHauteFeed("liar.zip") { entries in
            let i = entries.firstIndex { $0.name == "stop_times.txt" }!
            entries[i].declaredSize = 1 << 30
        }
        let refused = try importTerreHaute(feed)
        XCTAssertEqual(refused.status, 3, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("its directory declares 1 GiB uncompressed from"), refused.stderr)
        // The ratio check off: the member inflates into a growing buffer, to its true size, and the lie is named.
        let inflated = try importTerreHaute(feed, ["--gtfs-max-ratio", "100000"])
        XCTAssertEqual(inflated.status, 3, inflated.stderr)
        XCTAssertTrue(inflated.stderr.contains("stop_times.txt inflates to only 127807 bytes, not the 1073741824 its directory declares: the zip is corrupt"), inflated.stderr)
        // The old reader allocated and zeroed the declared 1 GiB.
        print("inflated: peak RSS \(inflated.peakRSS >> 20) MiB (wait4 bound \(inflated.maxRSSBound >> 20) MiB), \(String(format: "%.2f", inflated.seconds)) s")
        XCTAssertLessThan(inflated.peakRSS, 150 << 20, "peak RSS \(inflated.peakRSS >> 20) MiB")
    }

    func testRowLimitAndNoUsableTripSayWhy() throws {
        let rows = try importTerreHaute(sample("terre-haute-gtfs.zip"), ["--gtfs-max-rows", "1000"])
        XCTAssertEqual(rows.status, 3, rows.stderr)
        XCTAssertTrue(rows.stderr.contains("stop_times.txt: it has more than 1000 rows (raise the limit with import --gtfs-max-rows)"), rows.stderr)
        for bad in ["0", "-5", "x", "2000000001"] {
            let usage = try run(["import", sample("terre-haute.osm.gz"), "--gtfs-max-rows", bad, "-o", tmp("th.wfg")])
            XCTAssertEqual(usage.status, 2)
            XCTAssertTrue(usage.stderr.contains("--gtfs-max-rows must be a whole number from 1 to 2000000000, not '\(bad)'"), usage.stderr)
        }
        let size = try run(["import", sample("terre-haute.osm.gz"), "--gtfs-max-member-size", "8G", "-o", tmp("th.wfg")])
        XCTAssertTrue(size.stderr.contains("--gtfs-max-member-size must be a number of bytes from 1K to 4G"), size.stderr)
        // Calendar dates in the wrong format: the import says which rows were skipped and why.
        let feed = try terreHauteFeed("dates.zip") { entries in
            entries.removeAll { $0.name == "calendar_dates.txt" }
            let i = entries.firstIndex { $0.name == "calendar.txt" }!
            let text = String(decoding: entries[i].data, as: UTF8.self)
            entries[i].data = Array(text.replacingOccurrences(of: #"(\d{4})(\d{2})(\d{2})"#, with: "$1-$2-$3", options: .regularExpression).utf8)
        }
        let none = try importTerreHaute(feed)
        XCTAssertEqual(none.status, 3, none.stderr)
        XCTAssertTrue(none.stderr.contains("holds no usable trip: trips.txt gives no trip of a known route and service; skipped: "), none.stderr)
        XCTAssertTrue(none.stderr.contains("× calendar row with bad dates (e.g. calendar.txt line 2"), none.stderr)
        XCTAssertTrue(none.stderr.contains("× trip of an unknown service"), none.stderr)
    }
}
