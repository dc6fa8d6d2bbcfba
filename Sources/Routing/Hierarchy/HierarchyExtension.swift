import Foundation
import Graph

/// The import step that builds a contraction hierarchy for every profile of a graph (both profiles at once,
/// one thread each) and adds them to the graph file as `<profile>.ch_*` sections.
public struct HierarchyExtension: GraphExtension {
    /// The profiles to build hierarchies for (nil: all of the graph's).
    public var profiles: [String]?

    public init(profiles: [String]? = nil) { self.profiles = profiles }

    public var phase: String { "preprocessing: contraction hierarchies" }

    /// The five `ch_*` sections of each chosen profile.
    public func sectionNames(for graph: RoadGraph) -> [String] {
        chosen(graph).flatMap { HierarchySectionNames($0.profile.name).all }
    }

    /// Builds the hierarchies of `graph`'s chosen profiles, in parallel.
    public func build(from graph: RoadGraph) throws -> any GraphExtensionSections {
        let chosen = chosen(graph)
        let results = ResultSlots<HierarchyData>(count: chosen.count)
        DispatchQueue.concurrentPerform(iterations: chosen.count) { i in
            let space = SearchGraph(graph: graph, profile: chosen[i])
            results.set(i, HierarchyBuilder(space: space).build())
        }
        return BuiltHierarchies(hierarchies: chosen.indices.map { (chosen[$0].profile.name, results.value($0)) })
    }

    private func chosen(_ graph: RoadGraph) -> [ProfileGraph] {
        graph.profiles.filter { profiles?.contains($0.profile.name) ?? true }
    }
}

/// Built hierarchies, by profile name, ready to be written.
struct BuiltHierarchies: GraphExtensionSections {
    let hierarchies: [(profile: String, data: HierarchyData)]

    func write(to sink: some GraphSectionSink) throws(GraphFileError) {
        for (profile, data) in hierarchies { try HierarchySectionNames(profile).write(data, to: sink) }
    }
}

/// One result slot per parallel task, filled from several threads.
final class ResultSlots<T>: @unchecked Sendable {
    @exclusivity(unchecked) private var values: [T?]
    private let lock = NSLock()
    init(count: Int) { values = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ value: T) { lock.lock(); values[i] = value; lock.unlock() }
    func value(_ i: Int) -> T { lock.lock(); defer { lock.unlock() }; return values[i]! }
}
