/// The `highway` class of a way, stored as one byte per way in the graph file.
public enum HighwayClass: UInt8, CaseIterable, Sendable {
    case other = 0, motorway, motorwayLink, trunk, trunkLink, primary, primaryLink, secondary, secondaryLink
    case tertiary, tertiaryLink, unclassified, residential, livingStreet, service, track, pedestrian
    case footway, path, steps, cycleway, bridleway, corridor, platform

    /// The class for an OSM `highway` value (platforms tagged only `railway`/`public_transport` count as `platform`).
    public init(highway: String?) {
        switch highway {
        case "motorway": self = .motorway
        case "motorway_link": self = .motorwayLink
        case "trunk": self = .trunk
        case "trunk_link": self = .trunkLink
        case "primary": self = .primary
        case "primary_link": self = .primaryLink
        case "secondary": self = .secondary
        case "secondary_link": self = .secondaryLink
        case "tertiary": self = .tertiary
        case "tertiary_link": self = .tertiaryLink
        case "unclassified": self = .unclassified
        case "residential": self = .residential
        case "living_street": self = .livingStreet
        case "service": self = .service
        case "track": self = .track
        case "pedestrian": self = .pedestrian
        case "footway": self = .footway
        case "path": self = .path
        case "steps": self = .steps
        case "cycleway": self = .cycleway
        case "bridleway": self = .bridleway
        case "corridor": self = .corridor
        case "platform": self = .platform
        default: self = .other
        }
    }

    /// The OSM tag value this class stands for.
    public var osmValue: String {
        switch self {
        case .other: return "other"
        case .motorwayLink: return "motorway_link"
        case .trunkLink: return "trunk_link"
        case .primaryLink: return "primary_link"
        case .secondaryLink: return "secondary_link"
        case .tertiaryLink: return "tertiary_link"
        case .livingStreet: return "living_street"
        default: return "\(self)"
        }
    }
}
