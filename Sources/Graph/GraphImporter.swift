#if canImport(Glibc)
import Glibc
#endif
import OSM

/// Imports OSM XML or PBF into a graph file: stream the input through the collector, build the graph, write it.
public struct GraphImporter {
    /// The profiles to build, in the order their sections and node-flag bits take.
    public var profiles: [TravelProfile]
    /// Whether to build the ALT landmark tables that speed up searches (preprocessing after the import proper).
    public var buildLandmarks = true
    /// Steps that add sections after the graph is built (contraction hierarchies, timetables), in order.
    public var extensions: [any GraphExtension] = []
    /// Gathers the places of the search index while the input is read, when set (`PlaceIndexExtension` writes them).
    public var places: PlaceCollector?

    /// Progress as the import goes: reading (raw and XML bytes, elements) and then the build phases.
    public enum Progress {
        case reading(rawBytes: Int64, totalRawBytes: Int64?, xmlBytes: Int64, elements: Int)
        case phase(String)
    }

    /// Why an import failed.
    public enum Failure: Error, CustomStringConvertible {
        case input(OSMReadError)
        case output(GraphFileError)
        case invalidProfile(String)
        case noRoads(String)
        /// An extension failed; its message says why.
        case extensionFailed(String)

        public var description: String {
            switch self {
            case let .input(error): return error.description
            case let .output(error): return error.description
            case let .invalidProfile(message): return message
            case let .noRoads(name): return "\(name) holds no road any profile can use: nothing to import"
            case let .extensionFailed(message): return message
            }
        }
    }

    public init(profiles: [TravelProfile] = [.car, .foot]) { self.profiles = profiles }

    /// Reads `inputPath` ("-" for standard input) and writes the graph to `outputPath`; returns the import figures.
    ///
    /// The output must not exist or be a regular file (exit before any work otherwise). Temporary files of earlier
    /// imports into the output's folder whose process is gone are removed first (`TemporaryFiles.sweepStale`).
    public func run(input inputPath: String, output outputPath: String, progress: @escaping (Progress) -> Void = { _ in }) throws(Failure) -> ImportStatistics {
        try validateProfiles()
        if let refusal = OutputPath.refusal(outputPath) { throw .output(.cannotCreate(path: outputPath, message: refusal)) }
        TemporaryFiles.sweepStale(folder: TemporaryFiles.folder(of: outputPath))
        let input: OSMInput
        do { input = try OSMInput(path: inputPath) } catch { throw .input(error) }
        let collector = OSMCollector(profiles: profiles)
        collector.places = places
        if input.compression == .pbf {
            // PBF blocks are decoded on every core; the collector gets their elements in file order, on this thread.
            let reader = OSMPBFReader(source: input.source, name: input.file.name, handler: collector)
            do {
                try reader.read { reader in
                    progress(.reading(rawBytes: input.file.bytesRead, totalRawBytes: input.file.totalBytes, xmlBytes: input.file.bytesRead,
                                      elements: reader.nodeCount + reader.wayCount + reader.relationCount))
                }
            } catch { throw .input(error) }
            collector.statistics.nodesRead = reader.nodeCount
            collector.statistics.waysRead = reader.wayCount
            collector.statistics.relationsRead = reader.relationCount
        } else {
            // Parsing and collecting run on two threads; the collector sees the elements in file order.
            let pipeline = PipelinedElementHandler(target: collector)
            let reader = OSMXMLReader(source: input.source, name: input.file.name, handler: pipeline)
            do {
                try reader.read { reader in
                    progress(.reading(rawBytes: input.file.bytesRead, totalRawBytes: input.file.totalBytes, xmlBytes: reader.xmlBytes,
                                      elements: reader.nodeCount + reader.wayCount + reader.relationCount))
                }
                pipeline.finish()
            } catch {
                pipeline.finish()
                throw .input(error)
            }
            collector.statistics.nodesRead = reader.nodeCount
            collector.statistics.waysRead = reader.wayCount
            collector.statistics.relationsRead = reader.relationCount
        }
        var builder = GraphBuilder(collector: collector)
        builder.phase = { progress(.phase($0)) }
        builder.buildLandmarks = buildLandmarks
        let graph = builder.build()
        if graph.edgeFrom.isEmpty { throw .noRoads(input.file.name) }
        progress(.phase("writing"))
        let metadata = GraphMetadata(generator: wayfinderVersion, statistics: builder.statistics, profiles: profiles)
        if extensions.isEmpty {
            do { try Self.write(graph, metadata: metadata, to: outputPath) } catch { throw .output(error) }
            return builder.statistics
        }
        // With extensions: the graph goes to a hidden file beside the output first; the output is written once,
        // holding the graph's sections and the extensions', so nothing half-done ever stands at the output path.
        let base = TemporaryFiles.path(for: outputPath, kind: "base")
        TemporaryFiles.register(base)
        defer { unlink(base); TemporaryFiles.unregister(base) }
        do { try Self.write(graph, metadata: metadata, to: base) } catch { throw .output(error) }
        do {
            let written = try RoadGraph(path: base)
            let writer = try GraphFileWriter(path: outputPath)
            try writer.appendSections(of: written.file)
            for step in extensions {
                do { try step.extend(written, writer: writer) { progress(.phase($0)) } } catch let error as GraphFileError {
                    throw error
                } catch {
                    writer.abandon()
                    throw Failure.extensionFailed("\(error)")
                }
            }
            progress(.phase("writing"))
            try writer.finish()
        } catch let error as GraphFileError {
            throw .output(error)
        } catch let error as Failure {
            throw error
        } catch {
            throw .extensionFailed("\(error)")
        }
        return builder.statistics
    }

    private func validateProfiles() throws(Failure) {
        guard !profiles.isEmpty, profiles.count <= 7 else { throw .invalidProfile("between 1 and 7 profiles are needed, got \(profiles.count)") }
        var seen = Set<String>()
        for profile in profiles {
            let valid = !profile.name.isEmpty && profile.name.utf8.count <= 12 && profile.name.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
            guard valid else { throw .invalidProfile("profile name '\(profile.name)' must be 1–12 characters of a–z, 0–9 and _") }
            guard seen.insert(profile.name).inserted else { throw .invalidProfile("profile '\(profile.name)' is given twice") }
        }
    }

    /// Writes `graph` as a graph file at `path` (temporary file, then rename).
    public static func write(_ graph: GraphData, metadata: GraphMetadata, to path: String) throws(GraphFileError) {
        let writer = try GraphFileWriter(path: path)
        typealias S = GraphSectionName
        try writer.append(S.meta, metadata.encoded())
        try writer.append(S.nodeLatitudes, graph.nodeLatitudes)
        try writer.append(S.nodeLongitudes, graph.nodeLongitudes)
        try writer.append(S.nodeOSMIDs, graph.nodeOSMIDs)
        try writer.append(S.nodeFlags, graph.nodeFlags)
        try writer.append(S.edgeFrom, graph.edgeFrom)
        try writer.append(S.edgeTo, graph.edgeTo)
        try writer.append(S.edgeLength, graph.edgeLengthMillimetres)
        try writer.append(S.edgeWay, graph.edgeWay)
        try writer.append(S.edgeShapeStart, graph.edgeShapeStart)
        try writer.append(S.shapeLatitudes, graph.shapeLatitudes)
        try writer.append(S.shapeLongitudes, graph.shapeLongitudes)
        try writer.append(S.wayOSMIDs, graph.wayOSMIDs)
        try writer.append(S.wayNames, graph.wayNames)
        try writer.append(S.wayRefs, graph.wayRefs)
        try writer.append(S.wayClasses, graph.wayClasses)
        try writer.append(S.stringStart, graph.stringStart)
        try writer.append(S.stringBytes, graph.stringBytes)
        for profile in graph.profiles {
            let names = S.Profile(profile.name)
            try writer.append(names.timeForward, profile.timeForward)
            try writer.append(names.timeBackward, profile.timeBackward)
            try writer.append(names.firstIncidence, profile.firstIncidence)
            try writer.append(names.incidence, profile.incidence)
            try writer.append(names.island, profile.island)
            try writer.append(names.landmarkFrom, profile.landmarkFrom)
            try writer.append(names.landmarkTo, profile.landmarkTo)
            try writer.append(names.landmarkNodes, profile.landmarkNodes)
            try writer.append(names.restrictionKinds, profile.restrictionKinds)
            try writer.append(names.restrictionStart, profile.restrictionStart)
            try writer.append(names.restrictionPath, profile.restrictionPath)
        }
        try writer.append(S.indexItems, graph.spatialIndex.items)
        try writer.append(S.indexBoxes, graph.spatialIndex.boxes)
        try writer.append(S.indexLevels, graph.spatialIndex.levelStart)
        try writer.finish()
    }
}
