import Foundation

/// The `meta` section: what made the file, the import figures and the profile tables used.
public struct GraphMetadata: Codable, Equatable, Sendable {
    /// Name and version of the program that wrote the file.
    public var generator: String
    /// Figures of the import that made the file.
    public var statistics: ImportStatistics
    /// The profile tables the graph was built with, in section order.
    public var profiles: [TravelProfile]
    /// Names of the highway classes stored per way, by class number.
    public var highwayClasses: [String]

    public init(generator: String, statistics: ImportStatistics, profiles: [TravelProfile]) {
        self.generator = generator
        self.statistics = statistics
        self.profiles = profiles
        highwayClasses = HighwayClass.allCases.map(\.osmValue)
    }

    /// JSON with sorted keys, so the same import gives the same bytes. Every number in it is finite: profile tables are
    /// checked (`TravelProfile.numberProblem`) and `maxspeed` values capped before a speed is taken (JSON has no
    /// infinity, so an infinite speed would stop the encoder here).
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try! encoder.encode(self))
    }
}

/// The program name and version written into graph files.
public let wayfinderVersion = "wayfinder 0.1.0"
