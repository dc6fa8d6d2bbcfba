import Foundation
import Graph

/// The import step that builds a contraction hierarchy for every profile of a graph (both profiles at once,
/// one thread each) and adds them to the graph file as `<profile>.ch_*` sections.
public struct HierarchyExtension: GraphExtension {
    /// The profiles to build hierarchies for (nil: all of the graph's).
    public var profiles: [String]?

    public init(profiles: [String]? = nil) { self.profiles = profiles }

    /// Builds the hierarchies of `graph`'s profiles and appends their sections.
    public func extend(_ graph: RoadGraph, writer: GraphFileWriter, phase: (String) -> Void) throws {
        let chosen = graph.profiles.filter { profiles?.contains($0.profile.name) ?? true }
        phase("preprocessing: contraction hierarchies")
        let results = ResultSlots<HierarchyData>(count: chosen.count)
        DispatchQueue.concurrentPerform(iterations: chosen.count) { i in
            let space = SearchGraph(graph: graph, profile: chosen[i])
            results.set(i, HierarchyBuilder(space: space).build())
        }
        for (i, profile) in chosen.enumerated() {
            try HierarchySectionNames(profile.profile.name).write(results.value(i), to: writer)
        }
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
