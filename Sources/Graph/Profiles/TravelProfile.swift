/// A travel mode's rules as data: which ways it may use, how fast, in which directions, and what stops it.
///
/// The defaults `car` and `foot` follow `docs/profiles.md`; another table can be loaded from JSON.
public struct TravelProfile: Codable, Equatable, Sendable {
    /// Short name used on the command line and in the graph file ("car", "foot").
    public var name: String
    /// Routable `highway` values and their speeds in km/h.
    public var highwaySpeeds: [String: Double]
    /// Extra tag values that make a way routable at `defaultSpeed` even when its highway is not listed (e.g. `railway=platform`).
    public var routableTags: [String: [String]]
    /// Speed in km/h for ways made routable by `routableTags` or by an allowing access override.
    public var defaultSpeed: Double
    /// `highway` values never routable, whatever the access tags say.
    public var neverRoutableHighways: [String]
    /// Tag values that make a way unroutable (`area=yes`, `route=ferry`…).
    public var excludingTags: [String: [String]]
    /// Access keys from most to least specific, each with the values that deny.
    public var accessRules: [AccessRule]
    /// Values of the most specific access key (the first rule) that open any `highway`-tagged way, listed or not.
    public var accessOverrideValues: [String]
    /// One-way rules; nil when one-way tags do not apply.
    public var oneway: OnewayRule
    /// `maxspeed` handling; nil when speed limits do not apply.
    public var maxspeed: MaxspeedRule?
    /// `barrier` values that close a node to this mode.
    public var blockingBarriers: [String]
    /// Whether an allowing access tag on a barrier node reopens it.
    public var barrierAccessOverride: Bool
    /// Node tags that close a node whatever its barrier (`foot=no`).
    public var blockingNodeTags: [String: [String]]
    /// Turn-restriction rules; nil when restrictions do not apply.
    public var restrictions: RestrictionRule?
    /// Where the mode may turn back (leave a node along the edge it arrived on); nil: anywhere (tables written
    /// before the rule existed read as `anywhere`).
    public var uTurns: UTurnRule?

    /// Where a mode may turn back.
    public enum UTurnRule: String, Codable, Equatable, Sendable {
        /// At any node, at no cost.
        case anywhere
        /// Only at a dead end: a node with exactly one edge the mode may use (a barrier closed to the mode also
        /// lets it turn back, see docs/profiles.md).
        case deadEnds = "dead_ends"
    }

    /// Whether the mode may turn back only at dead ends.
    public var uTurnsOnlyAtDeadEnds: Bool { uTurns == .deadEnds }

    /// One access key and the values of it that deny the mode.
    public struct AccessRule: Codable, Equatable, Sendable {
        public var key: String
        public var denyingValues: [String]
        public init(key: String, denyingValues: [String]) { self.key = key; self.denyingValues = denyingValues }
    }

    /// How one-way tagging reads for a mode.
    public struct OnewayRule: Codable, Equatable, Sendable {
        /// Keys read for direction, most specific first (`oneway:foot`, or `oneway`).
        public var keys: [String]
        /// Whether roundabouts (`junction=roundabout|circular`) and the highways below are one-way unless tagged otherwise.
        public var impliedByRoundabout: Bool
        /// Highways that are one-way forward unless tagged otherwise.
        public var impliedHighways: [String]
        /// Whether `oneway=reversible|alternating` makes the way unroutable.
        public var reversibleIsUnroutable: Bool
    }

    /// How `maxspeed` changes speed.
    public struct MaxspeedRule: Codable, Equatable, Sendable {
        /// Factor applied to a valid posted limit (0.8: cars average below the limit).
        public var factor: Double
    }

    /// Which restriction relations apply and who is exempt.
    public struct RestrictionRule: Codable, Equatable, Sendable {
        /// Relation `type` values read (`restriction`, `restriction:motorcar`).
        public var relationTypes: [String]
        /// Tag keys holding the restriction value, most specific first.
        public var valueKeys: [String]
        /// Values of `except` that exempt this mode.
        public var exemptions: [String]
    }
}

extension TravelProfile {
    /// The highest speed a table or a `maxspeed` tag may give, km/h: above any posted limit in the world, so a
    /// higher one is a mistake (docs/profiles.md).
    public static let maximumSpeed = 300.0
    /// The largest `maxspeed` factor a table may give.
    public static let maximumMaxspeedFactor = 2.0

    /// What is wrong with the table's numbers, or nil: every speed must be from 0 (closed) to `maximumSpeed` km/h,
    /// and the `maxspeed` factor more than 0 and at most `maximumMaxspeedFactor`.
    public var numberProblem: String? {
        func bad(_ speed: Double) -> Bool { !(speed >= 0 && speed <= Self.maximumSpeed) }
        let limit = "a speed must be from 0 (closed) to \(Int(Self.maximumSpeed)) km/h"
        for highway in highwaySpeeds.keys.sorted() where bad(highwaySpeeds[highway]!) {
            return "profile '\(name)': highwaySpeeds '\(highway)' is \(highwaySpeeds[highway]!) km/h; \(limit)"
        }
        if bad(defaultSpeed) { return "profile '\(name)': defaultSpeed is \(defaultSpeed) km/h; \(limit)" }
        if let factor = maxspeed?.factor, !(factor > 0 && factor <= Self.maximumMaxspeedFactor) {
            return "profile '\(name)': maxspeed factor is \(factor); it must be more than 0 and at most \(Self.maximumMaxspeedFactor)"
        }
        return nil
    }
}

extension TravelProfile {
    /// The default car profile of `docs/profiles.md`.
    public static let car = TravelProfile(
        name: "car",
        highwaySpeeds: [
            "motorway": 90, "motorway_link": 45, "trunk": 85, "trunk_link": 40,
            "primary": 65, "primary_link": 30, "secondary": 55, "secondary_link": 25,
            "tertiary": 40, "tertiary_link": 20, "unclassified": 25, "residential": 25,
            "living_street": 10, "service": 15,
        ],
        routableTags: [:],
        defaultSpeed: 0,
        neverRoutableHighways: ["construction", "proposed", "abandoned"],
        excludingTags: ["area": ["yes"], "impassable": ["yes"], "route": ["ferry"]],
        accessRules: ["motorcar", "motor_vehicle", "vehicle", "access"].map {
            AccessRule(key: $0, denyingValues: ["no", "private", "agricultural", "forestry", "emergency", "delivery", "psv", "bus"])
        },
        accessOverrideValues: [],
        oneway: OnewayRule(keys: ["oneway"], impliedByRoundabout: true, impliedHighways: ["motorway", "motorway_link"], reversibleIsUnroutable: true),
        maxspeed: MaxspeedRule(factor: 0.8),
        blockingBarriers: ["bollard", "block", "jersey_barrier", "chain", "fence", "wall", "planter", "rope", "log"],
        barrierAccessOverride: true,
        blockingNodeTags: [:],
        restrictions: RestrictionRule(relationTypes: ["restriction", "restriction:motorcar"], valueKeys: ["restriction:motorcar", "restriction"], exemptions: ["motorcar", "motor_vehicle"]),
        uTurns: .deadEnds
    )

    /// The default foot profile of `docs/profiles.md`.
    public static let foot = TravelProfile(
        name: "foot",
        highwaySpeeds: Dictionary(uniqueKeysWithValues: [
            "footway", "pedestrian", "path", "living_street", "residential", "service", "unclassified",
            "tertiary", "tertiary_link", "secondary", "secondary_link", "primary", "primary_link",
            "trunk", "trunk_link", "track", "bridleway", "cycleway", "corridor", "platform",
        ].map { ($0, 5.0) } + [("steps", 3.0)]),
        routableTags: ["railway": ["platform"], "public_transport": ["platform"]],
        defaultSpeed: 5,
        neverRoutableHighways: ["construction", "proposed", "abandoned"],
        excludingTags: ["route": ["ferry"]],
        accessRules: [
            AccessRule(key: "foot", denyingValues: ["no", "private", "use_sidepath"]),
            AccessRule(key: "access", denyingValues: ["no", "private"]),
        ],
        accessOverrideValues: ["yes", "designated", "permissive"],
        oneway: OnewayRule(keys: ["oneway:foot"], impliedByRoundabout: false, impliedHighways: [], reversibleIsUnroutable: false),
        maxspeed: nil,
        blockingBarriers: ["fence", "wall"],
        barrierAccessOverride: false,
        blockingNodeTags: ["foot": ["no"]],
        restrictions: nil,
        uTurns: .anywhere
    )
}
