import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// `wayfinder import`, run as a subprocess.
final class ImportCommandTests: CLITestCase {
    private func assertNoTerminalControl(_ result: RunResult, file: StaticString = #filePath, line: UInt = #line) {
        for (stream, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
            XCTAssertFalse(text.contains("\u{1B}"), "\(stream) holds an escape sequence: \(text.debugDescription)", file: file, line: line)
            XCTAssertFalse(text.contains("\r"), "\(stream) holds a carriage return: \(text.debugDescription)", file: file, line: line)
        }
    }

    /// Files in the temporary folder other than the captured output.
    private func folderContents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: temp.path).filter { !$0.hasPrefix(".stdout-") && !$0.hasPrefix(".stderr-") }.sorted()
    }

    func testImportPrintsTheSummaryAndWritesAGraph() throws {
        let output = tmp("x.wfg")
        let result = try run(["import", sample("monaco.osm.gz"), "-o", output])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "", "nothing on stderr when it is not a terminal")
        for word in ["Imported", "nodes", "car", "foot", "peak memory", "ways skipped", "graph", "file"] {
            XCTAssertTrue(result.stdout.contains(word), "summary lacks '\(word)':\n\(result.stdout)")
        }
        XCTAssertTrue(result.stdout.contains("13,739 nodes, 1,944 ways, 77 relations"), result.stdout)
        XCTAssertTrue(result.stdout.contains("→ \(output)"), result.stdout)
        assertNoTerminalControl(result)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        XCTAssertEqual(Array(bytes.prefix(8)), Array("WAYFGRPH".utf8))
        XCTAssertGreaterThan(bytes.count, 4096)
        XCTAssertEqual(try folderContents(), ["x.wfg"], "no temporary file is left behind")
    }

    func testDefaultOutputNameInTheCurrentFolder() throws {
        let result = try run(["import", sample("monaco.osm.gz"), "-q"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp("monaco.wfg")), "\((try? folderContents()) ?? [])")
    }

    func testProgressIsDrawnOnlyOnATerminalAndNotWhenQuiet() throws {
        let loud = try run(["import", sample("monaco.osm.gz"), "-o", tmp("loud.wfg")], terminalStderr: true)
        XCTAssertEqual(loud.status, 0, loud.terminal)
        XCTAssertTrue(loud.terminal.contains("\u{1B}[K"), "a terminal gets the progress line: \(loud.terminal.debugDescription)")
        XCTAssertTrue(loud.terminal.contains("building"), loud.terminal.debugDescription)
        XCTAssertTrue(loud.stdout.contains("peak memory"))
        XCTAssertFalse(loud.stdout.contains("\u{1B}"), "stdout is a file: no escapes there")

        for flag in ["--quiet", "-q"] {
            let quiet = try run(["import", sample("monaco.osm.gz"), "-o", tmp("quiet.wfg"), flag], terminalStderr: true)
            XCTAssertEqual(quiet.status, 0, quiet.terminal)
            XCTAssertEqual(quiet.terminal, "", "\(flag): nothing drawn on the terminal")
            XCTAssertTrue(quiet.stdout.contains("13,739 nodes"), "\(flag) still prints the summary")
            XCTAssertTrue(quiet.stdout.contains("peak memory"))
        }
    }

    func testQuietWithoutTerminalStillPrintsTheSummary() throws {
        let result = try run(["import", sample("monaco.osm.gz"), "--quiet", "-o", tmp("q.wfg")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertTrue(result.stdout.contains("peak memory"))
        assertNoTerminalControl(result)
    }

    func testReadsStandardInputFromAPipe() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: sample("monaco.osm.gz")))
        let result = try run(["import", "-", "-o", tmp("stdin.wfg")], input: .pipe(data))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("Imported standard input → \(tmp("stdin.wfg"))"), result.stdout)
        XCTAssertTrue(result.stdout.contains("13,739 nodes, 1,944 ways, 77 relations"), result.stdout)
        assertNoTerminalControl(result)

        // The same graph as from the file.
        try importMonaco(to: tmp("file.wfg"))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: tmp("stdin.wfg"))), try Data(contentsOf: URL(fileURLWithPath: tmp("file.wfg"))))
    }

    func testStandardInputNeedsAnOutput() throws {
        let result = try run(["import", "-"], input: .pipe(Data("<osm/>".utf8)))
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("-o"), result.stderr)
    }

    func testMalformedXMLFailsWithPositionAndKeepsTheOldFile() throws {
        let bad = tmp("bad.osm")
        try """
        <osm version="0.6">
          <node id="1" lat="1" lon="2"/>
          <way id="2" & >
        </osm>
        """.write(toFile: bad, atomically: true, encoding: .utf8)

        // No file yet: none is created.
        let fresh = try run(["import", bad, "-o", tmp("new.wfg")])
        XCTAssertEqual(fresh.status, 3, fresh.stderr)
        XCTAssertTrue(fresh.stderr.contains("\(bad):3:15"), "names the file, line and column: \(fresh.stderr)")
        XCTAssertTrue(fresh.stderr.contains("malformed XML"), fresh.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp("new.wfg")))
        XCTAssertEqual(fresh.stdout, "", "no summary for a failed import")

        // An older graph at the target stays byte for byte.
        let old = tmp("old.wfg")
        try importMonaco(to: old)
        let before = try Data(contentsOf: URL(fileURLWithPath: old))
        let again = try run(["import", bad, "-o", old])
        XCTAssertEqual(again.status, 3, again.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: old)), before)
        XCTAssertEqual(try folderContents(), ["bad.osm", "old.wfg"], "no temporary file is left behind")
    }

    func testBadElementFailsWithPosition() throws {
        let bad = tmp("node.osm")
        try "<osm>\n  <node id=\"1\" lat=\"1\" lon=\"2\"/>\n  <node id=\"2\" lon=\"2\"/>\n</osm>\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let result = try run(["import", bad, "-o", tmp("n.wfg")])
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("\(bad):3:3"), result.stderr)
        XCTAssertTrue(result.stderr.contains("node 2"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp("n.wfg")))
    }

    func testNonOSMInputsFail() throws {
        let gpx = tmp("track.gpx")
        try "<gpx><trk/></gpx>".write(toFile: gpx, atomically: true, encoding: .utf8)
        let notOSM = try run(["import", gpx, "-o", tmp("g.wfg")])
        XCTAssertEqual(notOSM.status, 3)
        XCTAssertTrue(notOSM.stderr.contains("not an OSM XML file"), notOSM.stderr)

        let zip = try run(["import", sample("terre-haute-gtfs.zip"), "-o", tmp("z.wfg")])
        XCTAssertEqual(zip.status, 3)
        XCTAssertTrue(zip.stderr.contains("zip"), zip.stderr)

        _ = FileManager.default.createFile(atPath: tmp("empty.osm"), contents: Data())
        let empty = try run(["import", tmp("empty.osm"), "-o", tmp("e.wfg")])
        XCTAssertEqual(empty.status, 3)
        XCTAssertTrue(empty.stderr.contains("empty"), empty.stderr)

        let noRoads = tmp("noroads.osm")
        try "<osm><node id=\"1\" lat=\"1\" lon=\"2\"/><way id=\"2\"><nd ref=\"1\"/><tag k=\"building\" v=\"yes\"/></way></osm>"
            .write(toFile: noRoads, atomically: true, encoding: .utf8)
        let roadless = try run(["import", noRoads, "-o", tmp("r.wfg")])
        XCTAssertEqual(roadless.status, 3)
        XCTAssertTrue(roadless.stderr.contains("no road"), roadless.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp("r.wfg")))
    }

    func testTruncatedGzipFails() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: sample("monaco.osm.gz")))
        let cut = tmp("cut.osm.gz")
        try original.prefix(original.count / 2).write(to: URL(fileURLWithPath: cut))
        let result = try run(["import", cut, "-o", tmp("cut.wfg")])
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("gzip"), result.stderr)
        XCTAssertTrue(result.stderr.contains("truncated"), result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("wayfinder: error: \(cut)"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp("cut.wfg")))
    }

    func testMissingInputFails() throws {
        let result = try run(["import", tmp("nowhere.osm.bz2"), "-o", tmp("x.wfg")])
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("nowhere.osm.bz2"), result.stderr)
        XCTAssertTrue(result.stderr.contains("No such file"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp("x.wfg")))
    }

    func testUnwritableOutputExits4() throws {
        // A folder that does not exist.
        let missingFolder = try run(["import", sample("monaco.osm.gz"), "-o", tmp("no/such/folder/x.wfg")])
        XCTAssertEqual(missingFolder.status, 4, missingFolder.stderr)
        XCTAssertTrue(missingFolder.stderr.contains("cannot create"), missingFolder.stderr)
        XCTAssertEqual(missingFolder.stdout, "")

        // A "folder" that is a file.
        _ = FileManager.default.createFile(atPath: tmp("plain-file"), contents: Data("x".utf8))
        let notAFolder = try run(["import", sample("monaco.osm.gz"), "-o", tmp("plain-file/x.wfg")])
        XCTAssertEqual(notAFolder.status, 4, notAFolder.stderr)

        // The target is a folder: the rename fails and the temporary file is removed.
        try FileManager.default.createDirectory(atPath: tmp("target.wfg"), withIntermediateDirectories: false)
        let folderTarget = try run(["import", sample("monaco.osm.gz"), "-o", tmp("target.wfg")])
        XCTAssertEqual(folderTarget.status, 4, folderTarget.stderr)
        let leftovers = try folderContents()
        XCTAssertFalse(leftovers.contains { $0.contains(".tmp-") }, leftovers.description)

        // A read-only folder (only meaningful without root's override of permissions).
        let readOnly = tmp("read-only")
        try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: false)
        chmod(readOnly, 0o555)
        let probe = readOnly + "/probe"
        if FileManager.default.createFile(atPath: probe, contents: nil) {
            unlink(probe) // running as root: permissions do not stop writes
        } else {
            let denied = try run(["import", sample("monaco.osm.gz"), "-o", readOnly + "/x.wfg"])
            XCTAssertEqual(denied.status, 4, denied.stderr)
            XCTAssertTrue(denied.stderr.contains("Permission denied"), denied.stderr)
        }
    }

    /// A way whose `maxspeed` is a 41-digit number imports (it made the import trap on an infinite speed): the value
    /// is not understood, counted, and the table speed kept.
    func testAnAbsurdMaxspeedIsNotUnderstood() throws {
        let input = tmp("maxspeed.osm")
        try """
            <osm version="0.6">
              <node id="1" lat="43.7300" lon="7.4200"/><node id="2" lat="43.7310" lon="7.4210"/><node id="3" lat="43.7320" lon="7.4220"/>
              <way id="10"><nd ref="1"/><nd ref="2"/><nd ref="3"/><tag k="highway" v="primary"/><tag k="maxspeed" v="\(String(repeating: "9", count: 41))"/></way>
            </osm>
            """.write(toFile: input, atomically: true, encoding: .utf8)
        let result = try run(["import", input, "-o", tmp("maxspeed.wfg"), "-q"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("1 maxspeed and 0 oneway values not understood"), result.stdout)
        // At the primary road's 65 km/h: 274 m in about 15 s, not in no time.
        let route = try run(["eta", "--graph", tmp("maxspeed.wfg"), "43.7300,7.4200", "43.7320,7.4220", "--format", "json"])
        XCTAssertEqual(route.status, 0, route.stderr)
        let duration = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(route.stdout.utf8)) as? [String: Any])?["expectedTravelTime"] as? Double, route.stdout)
        XCTAssertEqual(duration, 274.4 / (65 / 3.6), accuracy: 1, route.stdout)
    }

    /// `--profiles FILE.json`: a valid table builds its own profile; a file that is not a table array, or a table
    /// with a speed out of range, stops the import with the file, profile and value named (exit 3, no file written).
    func testProfilesFile() throws {
        func bike(residential: String) -> String {
            """
            [{"name": "bike", "highwaySpeeds": {"cycleway": 18, "residential": \(residential), "primary": 20, "secondary": 18,
              "tertiary": 15, "service": 10, "footway": 5}, "routableTags": {}, "defaultSpeed": 0, "neverRoutableHighways": [],
              "excludingTags": {}, "accessRules": [{"key": "bicycle", "denyingValues": ["no"]}], "accessOverrideValues": [],
              "oneway": {"keys": ["oneway"], "impliedByRoundabout": true, "impliedHighways": [], "reversibleIsUnroutable": true},
              "blockingBarriers": ["fence"], "barrierAccessOverride": false, "blockingNodeTags": {}}]
            """
        }
        let good = tmp("bike.json"), fast = tmp("fast.json")
        try bike(residential: "15").write(toFile: good, atomically: true, encoding: .utf8)
        try bike(residential: "1e300").write(toFile: fast, atomically: true, encoding: .utf8)
        let imported = try run(["import", sample("monaco.osm.gz"), "-o", tmp("bike.wfg"), "--profiles", good, "-q"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let info = try run(["info", tmp("bike.wfg")])
        XCTAssertTrue(info.stdout.contains("profiles      bike"), info.stdout)

        let notJSON = tmp("broken.json")
        try "[{\"name\": \"car\"".write(toFile: notJSON, atomically: true, encoding: .utf8)
        for (file, expected) in [(fast, "profile 'bike': highwaySpeeds 'residential' is 1e+300 km/h"), (notJSON, "cannot read profiles from")] {
            let result = try run(["import", sample("monaco.osm.gz"), "-o", tmp("refused.wfg"), "--profiles", file])
            XCTAssertEqual(result.status, 3, result.stderr)
            XCTAssertTrue(result.stderr.contains(file), result.stderr)
            XCTAssertTrue(result.stderr.contains(expected), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: tmp("refused.wfg")))
        }
    }
}
