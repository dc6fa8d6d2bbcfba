// swift-tools-version:6.0
import PackageDescription

/// Hot loops over plain arrays: skip the dynamic exclusivity checks in release builds (debug builds keep them).
let hotPathSettings: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "Wayfinder",
    products: [
        .executable(name: "wayfinder", targets: ["wayfinder"]),
        .library(name: "OSM", targets: ["OSM"]),
        .library(name: "Graph", targets: ["Graph"]),
    ],
    targets: [
        // Thin shims over Debian's C libraries (libexpat1-dev, zlib1g-dev, libbz2-dev).
        .systemLibrary(name: "CExpat", path: "Sources/CExpat"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .systemLibrary(name: "CBZip2", path: "Sources/CBZip2"),

        // Reading OSM XML: decompression streams, the expat reader, plain element values.
        .target(name: "OSM", dependencies: ["CExpat", "CZlib", "CBZip2"], swiftSettings: hotPathSettings),
        // Profiles, graph building, the graph file and its spatial index.
        .target(name: "Graph", dependencies: ["OSM", "CZlib"], swiftSettings: hotPathSettings),
        // The command-line tool.
        .executableTarget(name: "wayfinder", dependencies: ["OSM", "Graph"]),

        // Benchmark helper: raw libexpat throughput over the same input (the baseline of Tools/bench-import).
        .executableTarget(name: "expat-baseline", dependencies: ["OSM", "CExpat"], path: "Tools/ExpatBaseline"),

        .testTarget(name: "OSMTests", dependencies: ["OSM", "CZlib", "CBZip2"]),
        .testTarget(name: "GraphTests", dependencies: ["Graph", "OSM"]),
        .testTarget(name: "WayfinderCLITests", dependencies: ["wayfinder"]),
    ]
)
