import Foundation
import Graph

/// The import step that builds a contraction hierarchy for every profile of a graph (both profiles at once,
/// one thread each) and adds them to the graph file as `<profile>.ch_*` sections.
public struct HierarchyExtension: GraphExtension {
    /// The profiles to build hierarchies for (nil: all of the graph's).
    public var profiles: [String]?
    /// The contraction's budget (`HierarchyBuilder.workPerArc`, `workFloor`); nil: the builder's own.
    public var workPerArc: Int?
    public var workFloor: Int?

    public init(profiles: [String]? = nil) { self.profiles = profiles }

    public var phase: String { "preprocessing: contraction hierarchies" }

    /// The five `ch_*` sections of each chosen profile.
    public func sectionNames(for graph: RoadGraph) -> [String] {
        chosen(graph).flatMap { HierarchySectionNames($0.profile.name).all }
    }

    /// Builds the hierarchies of `graph`'s chosen profiles, in parallel; throws `HierarchyTooDense` for the first
    /// profile whose contraction passes its budget.
    public func build(from graph: RoadGraph) throws -> any GraphExtensionSections {
        let chosen = chosen(graph)
        let results = ResultSlots<Result<HierarchyData, HierarchyTooDense>>(count: chosen.count)
        let workPerArc = workPerArc, workFloor = workFloor
        DispatchQueue.concurrentPerform(iterations: chosen.count) { i in
            var builder = HierarchyBuilder(space: SearchGraph(graph: graph, profile: chosen[i]))
            if let workPerArc { builder.workPerArc = workPerArc }
            if let workFloor { builder.workFloor = workFloor }
            results.set(i, Result { () throws(HierarchyTooDense) in try builder.build() })
        }
        return BuiltHierarchies(hierarchies: try chosen.indices.map { (chosen[$0].profile.name, try results.value($0).get()) })
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
