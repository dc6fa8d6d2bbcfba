// swift-tools-version:6.0
import PackageDescription

// No target carries unsafe flags, so the package works as an ordinary dependency (`.package(url:from:)`): the hot
// loops skip the dynamic exclusivity checks through `@exclusivity(unchecked)` on the class properties they touch
// (Tools/bench-exclusivity measures that against the whole-package `-enforce-exclusivity=unchecked` flag).

let package = Package(
    name: "Wayfinder",
    products: [
        .executable(name: "wayfinder", targets: ["wayfinder"]),
        .library(name: "OSM", targets: ["OSM"]),
        .library(name: "Graph", targets: ["Graph"]),
        .library(name: "Routing", targets: ["Routing"]),
        .library(name: "Wayfinder", targets: ["Wayfinder"]),
        .library(name: "Batch", targets: ["Batch"]),
        .library(name: "Transit", targets: ["Transit"]),
        .library(name: "Server", targets: ["Server"]),
    ],
    targets: [
        // Thin shims over Debian's C libraries (libexpat1-dev, zlib1g-dev, libbz2-dev).
        .systemLibrary(name: "CExpat", path: "Sources/CExpat"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .systemLibrary(name: "CBZip2", path: "Sources/CBZip2"),
        // libdeflate (libdeflate-dev): one-shot zlib decompression of OSM PBF blobs.
        .systemLibrary(name: "CDeflate", path: "Sources/CDeflate"),

        // Linux epoll and eventfd (glibc's headers; nothing to link), for the HTTP server's workers.
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),

        // Reading OSM XML and PBF: decompression streams, the expat reader, the protobuf and PBF readers, plain element values.
        .target(name: "OSM", dependencies: ["CExpat", "CZlib", "CBZip2", "CDeflate"]),
        // Profiles, graph building, the graph file and its spatial index (libdeflate's CRC-32 checks the file's sections).
        .target(name: "Graph", dependencies: ["OSM", "CDeflate"]),
        // Searches, snapping, route assembly (geometry, steps), multi-stop routes and ETAs.
        .target(name: "Routing", dependencies: ["Graph"]),
        // Public transit: GTFS reading (zip, CSV, calendars), the timetable and its file sections, RAPTOR, the reference CSA, itineraries.
        .target(name: "Transit", dependencies: ["Graph", "Routing", "CZlib"]),
        // The public, MapKit-shaped Swift API and the output encoders (JSON, GeoJSON, GPX, encoded polyline).
        .target(name: "Wayfinder", dependencies: ["Routing", "Graph", "Transit"]),
        // The front ends (Batch, Server, the CLI) depend on Wayfinder alone (and the Server on the CEpoll shim), so the compiler keeps them
        // out of the engine's modules: what they need of Graph, Routing and Transit, Wayfinder offers through `OfflineMap`.
        // Batch routing of job files: job parsing (CSV, NDJSON), the ordered multi-threaded runner, resume, shards.
        .target(name: "Batch", dependencies: ["Wayfinder"]),
        // The HTTP server: its own HTTP/1.1 connections (epoll), OSRM-compatible endpoints, roads by bounding box, the offline map page.
        .target(name: "Server", dependencies: ["CEpoll", "Wayfinder"]),
        // The command-line tool (its folder is not `Sources/wayfinder`, which would differ from `Sources/Wayfinder` only by case).
        // It depends on the front-end modules and Wayfinder only: every command goes through Wayfinder's API
        // (`OfflineMap`, `MapImporter`, `MapFileReport`), so the compiler keeps it out of OSM, Graph, Routing and Transit.
        .executableTarget(name: "wayfinder", dependencies: ["Wayfinder", "Batch", "Server"], path: "Sources/WayfinderCLI"),

        // Fuzzing: the parsers as fuzz targets (Tools/Fuzz/Harnesses), and the libFuzzer driver / corpus replayer over them
        // (Tools/fuzz builds it with -sanitize=fuzzer and runs every target).
        .target(name: "FuzzHarnesses", dependencies: ["OSM", "Graph", "Routing", "Transit", "Wayfinder", "Batch", "Server", "CZlib"], path: "Tools/Fuzz/Harnesses"),
        .executableTarget(name: "wayfinder-fuzz", dependencies: ["FuzzHarnesses"], path: "Tools/Fuzz/Driver"),

        // Benchmark helper: raw libexpat throughput over the same input (the baseline of Tools/bench-import).
        .executableTarget(name: "expat-baseline", dependencies: ["OSM", "CExpat"], path: "Tools/ExpatBaseline"),
        // Benchmark: route queries (A*) against the plain Dijkstra on random pairs (Tools/bench-route).
        .executableTarget(name: "route-benchmark", dependencies: ["Routing", "Graph"], path: "Tools/RouteBenchmark"),
        // Benchmark: contraction-hierarchy queries, matrices and trips against A* and Dijkstra (Tools/bench-ch).
        .executableTarget(name: "ch-benchmark", dependencies: ["Routing", "Graph"], path: "Tools/HierarchyBenchmark"),
        // Benchmark: a whole answer (snapping, search, geometry, steps, names; the ETA alone) against its snap and search (Tools/bench-answer).
        .executableTarget(name: "answer-benchmark", dependencies: ["Routing", "Graph"], path: "Tools/AnswerBenchmark"),
        // Benchmark: transit queries (RAPTOR) against the reference connection scan on random triples (Tools/bench-transit).
        .executableTarget(name: "transit-benchmark", dependencies: ["Transit", "Routing", "Graph"], path: "Tools/TransitBenchmark"),
        // Benchmark: the cost of checking a graph file before use (checksums, structural checks) against opening it unchecked (Tools/bench-open).
        .executableTarget(name: "open-benchmark", dependencies: ["Routing", "Graph"], path: "Tools/OpenBenchmark"),
        // Benchmark: place search latency on real names (whole, beginnings, typos) and the index's share of the import (Tools/bench-places).
        .executableTarget(name: "places-benchmark", dependencies: ["Graph", "Routing"], path: "Tools/PlacesBenchmark"),

        // What every test target shares: the drawn-map helper (ASCII-art OSM maps imported into graphs), samples of
        // Data/ imported once per test process, package paths, and a writer of honest or hostile zip archives.
        .target(name: "TestSupport", dependencies: ["OSM", "Graph", "Routing", "Transit", "CZlib"], path: "Tests/TestSupport"),

        .testTarget(name: "OSMTests", dependencies: ["TestSupport", "OSM", "CZlib", "CBZip2"]),
        .testTarget(name: "GraphTests", dependencies: ["TestSupport", "Graph", "OSM"]),
        .testTarget(name: "WayfinderCLITests", dependencies: ["TestSupport", "wayfinder", "CZlib"]),
        .testTarget(name: "RoutingTests", dependencies: ["TestSupport", "Routing", "Graph", "OSM"]),
        .testTarget(name: "WayfinderTests", dependencies: ["TestSupport", "Wayfinder", "Routing", "Graph", "Transit"]),
        .testTarget(name: "TransitTests", dependencies: ["TestSupport", "Transit", "Routing", "Graph", "CZlib"]),
        .testTarget(name: "BatchTests", dependencies: ["TestSupport", "Batch", "Wayfinder", "Routing", "Graph"]),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["TestSupport", "FuzzHarnesses", "Graph", "Transit"], exclude: ["Inputs", "Crashes", "Graphs"]),
        .testTarget(name: "ServerTests", dependencies: ["TestSupport", "Server", "Wayfinder", "Routing", "Graph", "OSM", "Transit"]),
        // Runs the examples of README.md and docs/*.md against the built `wayfinder` (convention at the top of the test).
        .testTarget(name: "DocumentationTests", dependencies: ["TestSupport", "wayfinder"]),
    ]
)
