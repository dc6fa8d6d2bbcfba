import Foundation
import XCTest
import TestSupport

/// The package as a user's package sees it: a scratch package depends on a copy of this one by URL (a git
/// repository tagged 0.1.0, so SwiftPM applies its rules for remote packages, unsafe flags refused), and its
/// `main.swift` is the README's Swift API samples, verbatim, with `import Wayfinder` as their only import.
final class SwiftPackageUseTests: CLITestCase {
    /// The ```swift blocks of the README's "Swift API" section, in order.
    static func readmeSwiftSamples() throws -> [String] {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        guard let start = readme.range(of: "\n## Swift API\n") else { throw XCTSkip("README has no Swift API section") }
        let section = readme[start.upperBound...].prefix { _ in true }
        let body = section.range(of: "\n## ").map { section[..<$0.lowerBound] } ?? section
        var samples: [String] = [], current: [Substring]? = nil
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" { current = [] }
            else if current != nil, line == "```" { samples.append(current!.joined(separator: "\n")); current = nil }
            else if current != nil { current!.append(line) }
        }
        return samples
    }

    func testReadmeSwiftSamplesCompileAndRunAgainstTheTaggedPackage() throws {
        let samples = try Self.readmeSwiftSamples()
        XCTAssertGreaterThanOrEqual(samples.count, 2, "the README's Swift API section lost its samples")
        let imports = samples.joined(separator: "\n").split(separator: "\n").filter { $0.hasPrefix("import ") }
        XCTAssertEqual(Set(imports), ["import Foundation", "import Wayfinder"], "the samples need imports beyond Wayfinder: \(imports)")

        let dependency = temp.appendingPathComponent("wayfinder"), user = temp.appendingPathComponent("user")
        try FileManager.default.createDirectory(at: user.appendingPathComponent("Sources/user"), withIntermediateDirectories: true)
        try samples.joined(separator: "\n\n").write(to: user.appendingPathComponent("Sources/user/main.swift"), atomically: true, encoding: .utf8)
        try """
        // swift-tools-version:6.0
        import PackageDescription
        let package = Package(
            name: "user",
            dependencies: [.package(url: "\(dependency.absoluteString)", from: "0.1.0")],
            targets: [.executableTarget(name: "user", dependencies: [.product(name: "Wayfinder", package: "wayfinder")])]
        )
        """.write(to: user.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try importMonaco(to: user.appendingPathComponent("monaco.wfg").path)

        // A copy of the package's sources as they are now (committed or not), as a tagged repository.
        let script = """
        set -euo pipefail
        mkdir -p "$DEP"
        cp -R "$ROOT/Package.swift" "$ROOT/Sources" "$ROOT/LICENSE" "$DEP/"
        cd "$DEP"
        git init -q && git add -A && git -c user.name=test -c user.email=test@example.invalid commit -qm sources && git tag 0.1.0
        cd "$USERPKG"
        swift build 2>&1 | tail -n 30
        .build/debug/user
        """
        var path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        if !path.contains("/opt/swift/usr/bin") { path = "/opt/swift/usr/bin:" + path }
        let result = try external("/bin/bash", ["-c", script], environment: ["DEP": dependency.path, "ROOT": packageRoot.path,
                                                                              "USERPKG": user.path, "PATH": path], timeout: 1200)
        XCTAssertEqual(result.status, 0, "the README's Swift samples did not build or run against the package:\n\(result.output)")
        XCTAssertFalse(result.output.contains("unsafe build flags"), result.output)
        // The samples print a route (name, distance, time, points) and a step per line, then the ETA, matrix and trip.
        XCTAssertTrue(result.output.contains("Head "), "no steps printed:\n\(result.output)")
        XCTAssertTrue(result.output.contains("[0, "), "no trip order printed:\n\(result.output)")
    }
}
