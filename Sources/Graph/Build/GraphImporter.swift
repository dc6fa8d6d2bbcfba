#if canImport(Glibc)
import Glibc
#endif
import OSM

/// Imports OSM XML or PBF into a graph file: stream the input through the collector, build the graph in memory,
/// run the extensions over it (landmarks, hierarchies, a timetable), and write the file once.
public struct GraphImporter {
    /// The profiles to build, in the order their sections and node-flag bits take.
    public var profiles: [TravelProfile]
    /// Whether to build the ALT landmark tables that speed up searches (the first extension, `LandmarkExtension`).
    public var buildLandmarks = true
    /// Steps that add sections after the graph (and the landmarks) are built — contraction hierarchies,
    /// timetables —, in order; each sees the graph with the sections of those before it.
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
        /// An extension failed with this error (`extensionFailed` with the error itself, for callers that tell kinds apart).
        case extensionError(any Error)

        public var description: String {
            switch self {
            case let .input(error): return error.description
            case let .output(error): return error.description
            case let .invalidProfile(message): return message
            case let .noRoads(name): return "\(name) holds no road any profile can use: nothing to import"
            case let .extensionFailed(message): return message
            case let .extensionError(error): return "\(error)"
            }
        }
    }

    public init(profiles: [TravelProfile] = [.car, .foot]) { self.profiles = profiles }

    /// Reads `inputPath` ("-" for standard input) and writes the graph to `outputPath`; returns the import figures.
    ///
    /// The output must not exist or be a regular file (exit before any work otherwise). Temporary files of earlier
    /// imports into the output's folder whose process is gone are removed first (`TemporaryFiles.sweepStale`). The
    /// file is written once, at the end, into the temporary file opened at the start (`GraphFileWriter`), then
    /// renamed into place; `built`, when given, receives what each extension built, in order.
    public func run(input inputPath: String, output outputPath: String, built: ((any GraphExtensionSections) -> Void)? = nil,
                    progress: @escaping (Progress) -> Void = { _ in }) throws(Failure) -> ImportStatistics {
        try validateProfiles()
        if let refusal = OutputPath.refusal(outputPath) { throw .output(.cannotCreate(path: outputPath, message: refusal)) }
        TemporaryFiles.sweepStale(folder: TemporaryFiles.folder(of: outputPath))
        // Opened first, so that an output that cannot be written fails before the work; abandoned on any failure.
        let writer: GraphFileWriter
        do { writer = try GraphFileWriter(path: outputPath) } catch { throw .output(error) }
        let (graph, statistics) = try buildRoads(input: inputPath, progress: progress)
        let metadata = GraphMetadata(generator: wayfinderVersion, statistics: statistics, profiles: profiles)
        let memory = InMemoryGraphFile(path: outputPath)
        do { try Self.store(consume graph, metadata: metadata, into: memory) } catch { throw .output(error) }
        let steps: [any GraphExtension] = (buildLandmarks ? [LandmarkExtension()] : []) + extensions
        for step in steps {
            progress(.phase(step.phase))
            do {
                let view = try memory.roadGraph()
                let names = step.sectionNames(for: view)
                let sections = try step.build(from: view)
                memory.startRecording()
                try sections.write(to: memory)
                let written = memory.stopRecording()
                precondition(written == names, "\(type(of: step)) wrote sections \(written), named \(names)")
                built?(sections)
            } catch let error as GraphFileError {
                throw .output(error)
            } catch {
                throw .extensionError(error)
            }
        }
        progress(.phase("writing"))
        do {
            try memory.write(to: writer)
            try writer.finish()
        } catch { throw .output(error) }
        return statistics
    }

    /// Reads the input and builds the road graph in memory.
    private func buildRoads(input inputPath: String, progress: @escaping (Progress) -> Void) throws(Failure) -> (GraphData, ImportStatistics) {
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
        let graph = builder.build()
        if graph.edgeFrom.isEmpty { throw .noRoads(input.file.name) }
        return (graph, builder.statistics)
    }

    private func validateProfiles() throws(Failure) {
        guard !profiles.isEmpty, profiles.count <= 7 else { throw .invalidProfile("between 1 and 7 profiles are needed, got \(profiles.count)") }
        var seen = Set<String>()
        for profile in profiles {
            let longest = GraphSectionName.maxProfileNameLength
            let valid = !profile.name.isEmpty && profile.name.utf8.count <= longest && profile.name.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
            guard valid else { throw .invalidProfile("profile name '\(profile.name)' must be 1–\(longest) characters of a–z, 0–9 and _") }
            guard seen.insert(profile.name).inserted else { throw .invalidProfile("profile '\(profile.name)' is given twice") }
            if let problem = profile.numberProblem { throw .invalidProfile(problem) }
        }
    }

    /// Writes `graph` as a graph file at `path` (temporary file, then rename).
    public static func write(_ graph: GraphData, metadata: GraphMetadata, to path: String) throws(GraphFileError) {
        let writer = try GraphFileWriter(path: path)
        try store(graph, metadata: metadata, into: writer)
        try writer.finish()
    }

    /// Adds the sections of `graph` to `sink`, in the file's order (the landmark sections empty unless `graph` holds
    /// tables: `LandmarkExtension` fills them in place).
    /// Each array is released once copied, so a caller that hands its graph over (`consume`) holds it only once.
    public static func store(_ graph: consuming GraphData, metadata: GraphMetadata, into writer: some GraphSectionSink) throws(GraphFileError) {
        typealias S = GraphSectionName
        var g = graph
        func take<T: BitwiseCopyable>(_ name: String, _ array: inout [T]) throws(GraphFileError) {
            try writer.append(name, array)
            array = []
        }
        try writer.append(S.meta, metadata.encoded())
        try take(S.nodeLatitudes, &g.nodeLatitudes)
        try take(S.nodeLongitudes, &g.nodeLongitudes)
        try take(S.nodeOSMIDs, &g.nodeOSMIDs)
        try take(S.nodeFlags, &g.nodeFlags)
        try take(S.edgeFrom, &g.edgeFrom)
        try take(S.edgeTo, &g.edgeTo)
        try take(S.edgeLength, &g.edgeLengthMillimetres)
        try take(S.edgeWay, &g.edgeWay)
        try take(S.edgeShapeStart, &g.edgeShapeStart)
        try take(S.shapeLatitudes, &g.shapeLatitudes)
        try take(S.shapeLongitudes, &g.shapeLongitudes)
        try take(S.wayOSMIDs, &g.wayOSMIDs)
        try take(S.wayNames, &g.wayNames)
        try take(S.wayRefs, &g.wayRefs)
        try take(S.wayClasses, &g.wayClasses)
        try take(S.stringStart, &g.stringStart)
        try take(S.stringBytes, &g.stringBytes)
        for p in g.profiles.indices {
            let names = S.Profile(g.profiles[p].name)
            try take(names.timeForward, &g.profiles[p].timeForward)
            try take(names.timeBackward, &g.profiles[p].timeBackward)
            try take(names.firstIncidence, &g.profiles[p].firstIncidence)
            try take(names.incidence, &g.profiles[p].incidence)
            try take(names.island, &g.profiles[p].island)
            try take(names.landmarkFrom, &g.profiles[p].landmarkFrom)
            try take(names.landmarkTo, &g.profiles[p].landmarkTo)
            try take(names.landmarkNodes, &g.profiles[p].landmarkNodes)
            try take(names.restrictionKinds, &g.profiles[p].restrictionKinds)
            try take(names.restrictionStart, &g.profiles[p].restrictionStart)
            try take(names.restrictionPath, &g.profiles[p].restrictionPath)
        }
        try take(S.indexItems, &g.spatialIndex.items)
        try take(S.indexBoxes, &g.spatialIndex.boxes)
        try take(S.indexLevels, &g.spatialIndex.levelStart)
    }
}
