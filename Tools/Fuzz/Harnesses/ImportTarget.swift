import Foundation
import Graph
import Wayfinder
#if canImport(Glibc)
import Glibc
#endif

// The `osm-import` and `profiles` targets: whole imports, as `wayfinder import` makes them, of hostile OSM data and of
// hostile profile tables, each written into a graph file that is then opened, searched and routed (`openAndRoute`).
// The parser targets (`xml`, `pbf`) stop at the elements; these go on through the profiles' tag rules, the graph
// builder, the place collector, landmarks, contraction hierarchies and the file's metadata.

extension FuzzTarget {
    /// A drawn map of tagged ways (Tests/FuzzRegressionTests/Graphs/tags.osm) that the `profiles` target imports with
    /// each input's tables, read once.
    nonisolated(unsafe) static var tagsMap: String? = nil

    /// An `osm-import` input: OSM data (plain, gzip or bzip2 XML or PBF, told from its first bytes) imported with the
    /// default profiles, landmarks, hierarchies and the place index, then opened and routed. Returns how many routes
    /// `openAndRoute` found (0 when the import refused the input).
    @discardableResult
    public static func osmImport(_ data: UnsafeRawBufferPointer) -> Int {
        let input = scratchPath("import-input")
        guard FileManager.default.createFile(atPath: input, contents: Data(data)) else { return 0 }
        defer { unlink(input) }
        return importAndRoute(input: input, options: MapImporter.Options())
    }

    /// A `profiles` input: a profile table file (`wayfinder import --profiles`, a JSON array of `TravelProfile`s) used
    /// to import the drawn map of tagged ways, then opened and routed by every profile it made. Returns how many
    /// routes were found (0 when the tables were refused).
    @discardableResult
    public static func profiles(_ data: UnsafeRawBufferPointer) -> Int {
        if tagsMap == nil { tagsMap = fuzzGraphsURL("tags.osm")?.path }
        guard let map = tagsMap else { return 0 }
        var options = MapImporter.Options()
        options.profilesJSON = Data(data)
        return importAndRoute(input: map, options: options)
    }

    /// `input` imported with `options` into a scratch graph file, which is then opened and routed; how many routes
    /// were found.
    static func importAndRoute(input: String, options: MapImporter.Options) -> Int {
        let output = scratchPath("import.wfg")
        defer { unlink(output) }
        guard (try? MapImporter(options: options).run(input: input, output: output)) != nil else { return 0 }
        return openAndRoute(path: output)
    }
}
