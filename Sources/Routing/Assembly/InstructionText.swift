import Graph

extension StepBuilder {
    /// The road a step follows, as instructions speak of it.
    struct RoadLabel: Equatable, Sendable {
        var name: String
        var ref: String
        var highwayClass: HighwayClass

        /// The label of the way edge `e` belongs to.
        init(edge e: Int, in graph: RoadGraph) {
            let label = graph.label(ofEdge: e)
            self.init(name: label.name, ref: label.ref, highwayClass: graph.highwayClass(ofEdge: e))
        }

        init(name: String, ref: String, highwayClass: HighwayClass) {
            self.name = name; self.ref = ref; self.highwayClass = highwayClass
        }

        /// Whether the road has neither name nor ref.
        var isUnnamed: Bool { name.isEmpty && ref.isEmpty }

        /// The step's `name`: the name, or the ref when the road has no name.
        var displayName: String { name.isEmpty ? ref : name }

        /// Whether a traveller would see `other` as another road: a different name or ref. Two unnamed roads
        /// count as the same road (nothing to announce between them).
        func differs(from other: RoadLabel) -> Bool {
            if isUnnamed && other.isUnnamed { return false }
            return name != other.name || ref != other.ref
        }

        /// What a sentence calls the road: its name, its ref, or a generic description from its class
        /// ("the footway"); nil for an unnamed ordinary street, which instructions leave unnamed.
        var spoken: String? {
            if !displayName.isEmpty { return displayName }
            return InstructionText.genericDescription(of: highwayClass)
        }
    }
}

/// The English sentences of turn-by-turn steps ("Turn left onto Rue Grimaldi").
enum InstructionText {
    /// A generic description of an unnamed road of a class ("the service road"), nil for ordinary streets.
    static func genericDescription(of highwayClass: HighwayClass) -> String? {
        switch highwayClass {
        case .motorway: return "the motorway"
        case .motorwayLink, .trunkLink: return "the ramp"
        case .primaryLink, .secondaryLink, .tertiaryLink: return "the slip road"
        case .service: return "the service road"
        case .track: return "the track"
        case .pedestrian: return "the pedestrian street"
        case .livingStreet: return "the living street"
        case .footway: return "the footway"
        case .path: return "the path"
        case .steps: return "the steps"
        case .cycleway: return "the cycleway"
        case .bridleway: return "the bridleway"
        case .corridor: return "the corridor"
        case .platform: return "the platform"
        case .other, .trunk, .primary, .secondary, .tertiary, .unclassified, .residential: return nil
        }
    }

    /// "1st", "2nd", "3rd", "4th", … "11th", "12th", "13th", "21st"…
    static func ordinal(_ n: Int) -> String {
        let lastTwo = n % 100, last = n % 10
        if (11...13).contains(lastTwo) { return "\(n)th" }
        switch last {
        case 1: return "\(n)st"
        case 2: return "\(n)nd"
        case 3: return "\(n)rd"
        default: return "\(n)th"
        }
    }

    /// " onto X", or "" when the road goes unnamed.
    private static func onto(_ road: StepBuilder.RoadLabel) -> String { road.spoken.map { " onto \($0)" } ?? "" }

    /// "Head north on Wabash Avenue"; "Head north" on an unnamed street or without a direction ("Head out").
    static func depart(bearing: Double?, road: StepBuilder.RoadLabel) -> String {
        let head = bearing.map { "Head \(TurnAngle.compassName($0))" } ?? "Head out"
        return head + (road.spoken.map { " on \($0)" } ?? "")
    }

    /// "Turn left onto Rue Grimaldi", "Turn slight right onto A 5", "Go straight onto the footway".
    static func turn(_ modifier: ManeuverModifier, road: StepBuilder.RoadLabel) -> String {
        switch modifier {
        case .straight: return "Go straight" + onto(road)
        case .uturn: return "Make a U-turn" + onto(road)
        default: return "Turn \(modifier.rawValue)" + onto(road)
        }
    }

    /// A new road without a real turn: "Continue onto Main Street", "Bear left onto Elm Street",
    /// "Continue sharp left onto Elm Street" (the road itself bends).
    static func newName(_ modifier: ManeuverModifier, road: StepBuilder.RoadLabel) -> String {
        let verb: String
        switch modifier {
        case .straight: verb = road.spoken == nil ? "Continue straight" : "Continue"
        case .slightLeft: verb = "Bear left"
        case .slightRight: verb = "Bear right"
        case .uturn: verb = "Make a U-turn"
        default: verb = "Continue \(modifier.rawValue)"
        }
        return verb + onto(road)
    }

    /// Staying on the same road where it turns or forks: "Continue left to stay on Main Street",
    /// "Keep right to stay on A 5", "Continue straight to stay on Main Street".
    static func `continue`(_ modifier: ManeuverModifier, road: StepBuilder.RoadLabel) -> String {
        let verb: String
        switch modifier {
        case .slightLeft: verb = "Keep left"
        case .slightRight: verb = "Keep right"
        case .uturn: verb = "Make a U-turn"
        default: verb = "Continue \(modifier.rawValue)"
        }
        return verb + (road.spoken.map { " to stay on \($0)" } ?? "")
    }

    /// "Make a U-turn", or "Make a U-turn onto X" when the road after it is another one.
    static func uturn(road: StepBuilder.RoadLabel, sameRoad: Bool) -> String {
        "Make a U-turn" + (sameRoad ? "" : onto(road))
    }

    /// "Enter the roundabout and take the 2nd exit onto Boulevard X"; "Enter the roundabout" when the leg ends on it.
    static func roundabout(exit: Int?, road: StepBuilder.RoadLabel) -> String {
        guard let exit else { return "Enter the roundabout" }
        return "Enter the roundabout and take the \(ordinal(exit)) exit" + onto(road)
    }

    /// Leaving a roundabout the leg started on: "Take the 2nd exit onto Boulevard X".
    static func exitRoundabout(exit: Int, road: StepBuilder.RoadLabel) -> String {
        "Take the \(ordinal(exit)) exit" + onto(road)
    }

    /// "Arrive at your destination", with ", on the left" / ", on the right" when the destination is off to a side.
    static func arrive(side: ManeuverModifier?) -> String {
        switch side {
        case .left?: return "Arrive at your destination, on the left"
        case .right?: return "Arrive at your destination, on the right"
        default: return "Arrive at your destination"
        }
    }
}
