import OSM

/// What a profile makes of one way: unroutable (and why) or its speed in each direction.
public enum WayVerdict: Equatable, Sendable {
    /// The way is not for this mode.
    case unroutable
    /// Speeds in km/h along and against the way's node order; nil where that direction is closed.
    case routable(forward: Double?, backward: Double?)
}

/// A profile table turned into sets for fast tag checks during import.
public struct ProfileEvaluator: Sendable {
    /// The table this evaluator reads.
    public let profile: TravelProfile
    private let speeds: [String: Double]
    private let routableTags: [String: Set<String>]
    private let neverRoutable: Set<String>
    private let excluding: [String: Set<String>]
    private let access: [(key: String, deny: Set<String>)]
    private let overrideValues: Set<String>
    private let blockingBarriers: Set<String>
    private let blockingNodeTags: [String: Set<String>]
    private let impliedOneway: Set<String>

    /// Prepares `profile` for evaluation.
    public init(_ profile: TravelProfile) {
        self.profile = profile
        speeds = profile.highwaySpeeds
        routableTags = profile.routableTags.mapValues(Set.init)
        neverRoutable = Set(profile.neverRoutableHighways)
        excluding = profile.excludingTags.mapValues(Set.init)
        access = profile.accessRules.map { ($0.key, Set($0.denyingValues)) }
        overrideValues = Set(profile.accessOverrideValues)
        blockingBarriers = Set(profile.blockingBarriers)
        blockingNodeTags = profile.blockingNodeTags.mapValues(Set.init)
        impliedOneway = Set(profile.oneway.impliedHighways)
    }

    /// Whether the most specific access tag present denies; nil when no access tag is present.
    public func accessDenies(_ tags: [OSMTag]) -> Bool? {
        for rule in access {
            if let value = tags[rule.key] { return rule.deny.contains(value) }
        }
        return nil
    }

    /// Decides whether a way is routable and how fast in each direction; `badValue` is told of tag values that did not parse.
    public func evaluate(way tags: [OSMTag], badValue: (String, String) -> Void = { _, _ in }) -> WayVerdict {
        let highway = tags["highway"] ?? ""
        if neverRoutable.contains(highway) { return .unroutable }
        for (key, values) in excluding {
            if let value = tags[key], values.contains(value) { return .unroutable }
        }
        var speed = speeds[highway]
        if speed == nil {
            for (key, values) in routableTags {
                if let value = tags[key], values.contains(value) { speed = profile.defaultSpeed; break }
            }
        }
        // Access: the most specific tag present decides; some values open unlisted highways.
        var mostSpecific: (index: Int, value: String)? = nil
        for (index, rule) in access.enumerated() {
            if let value = tags[rule.key] { mostSpecific = (index, value); break }
        }
        if let (index, value) = mostSpecific {
            if access[index].deny.contains(value) { return .unroutable }
            if speed == nil, index == 0, !highway.isEmpty, overrideValues.contains(value) { speed = profile.defaultSpeed }
        }
        guard let baseSpeed = speed, baseSpeed > 0 else { return .unroutable }

        // Direction.
        var forward = true, backward = true
        var explicit = false
        for key in profile.oneway.keys {
            guard let value = tags[key] else { continue }
            switch value {
            case "yes", "true", "1": backward = false; explicit = true
            case "-1", "reverse": forward = false; explicit = true
            case "no", "false", "0": explicit = true
            case "reversible", "alternating":
                if profile.oneway.reversibleIsUnroutable { return .unroutable }
                explicit = true
            default: badValue(key, value)
            }
            if explicit { break }
        }
        if !explicit {
            let junction = tags["junction"]
            if profile.oneway.impliedByRoundabout && (junction == "roundabout" || junction == "circular") { backward = false }
            if impliedOneway.contains(highway) { backward = false }
        }

        // Speed limits, direction-specific ones first.
        var forwardSpeed = baseSpeed, backwardSpeed = baseSpeed
        if let rule = profile.maxspeed {
            func limit(_ key: String) -> Double? {
                guard let value = tags[key] else { return nil }
                if let kmh = Self.parseMaxspeed(value) { return kmh * rule.factor }
                if !Self.isSymbolicMaxspeed(value) { badValue(key, value) }
                return nil
            }
            let both = limit("maxspeed")
            let forwardLimit = tags["maxspeed:forward"] != nil ? limit("maxspeed:forward") : nil
            let backwardLimit = tags["maxspeed:backward"] != nil ? limit("maxspeed:backward") : nil
            if let value = forwardLimit ?? both { forwardSpeed = value }
            if let value = backwardLimit ?? both { backwardSpeed = value }
        }
        return .routable(forward: forward ? forwardSpeed : nil, backward: backward ? backwardSpeed : nil)
    }

    /// Whether a node with these tags closes the way to this mode.
    public func blocks(node tags: [OSMTag]) -> Bool {
        for (key, values) in blockingNodeTags {
            if let value = tags[key], values.contains(value) { return true }
        }
        guard let barrier = tags["barrier"], blockingBarriers.contains(barrier) else { return false }
        if profile.barrierAccessOverride, let denies = accessDenies(tags), !denies { return false }
        return true
    }

    /// Whether a `maxspeed` value is a valid OSM value with no number in it (`none`, `walk`, `signals`, `variable`,
    /// `national`, or a country's implicit limit such as `DE:urban`, `FR:zone30`, `GB:nsl_single`): the profile ignores
    /// those on purpose (the table speed applies), so the import does not report them as not understood.
    public static func isSymbolicMaxspeed(_ text: String) -> Bool {
        if ["none", "walk", "signals", "variable", "national", "implicit", "unposted"].contains(text) { return true }
        // CC[-SUBDIVISION]:type, e.g. DE:urban, RU:living_street, US-CA:school (ISO 3166 codes, lower-case type).
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let country = parts[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard country[0].count == 2, country[0].allSatisfy({ $0.isASCII && $0.isUppercase }),
              country.count == 1 || (1...3).contains(country[1].count) && country[1].allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) })
        else { return false }
        let type = parts[1]
        return !type.isEmpty && type.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }
    }

    /// Parses a `maxspeed` value in km/h: a number, `N mph` or `N km/h` (space optional); nil for anything else (`none`,
    /// `walk`, `DE:urban`…) and for a limit over `TravelProfile.maximumSpeed` (a mistake, not a road's limit).
    public static func parseMaxspeed(_ text: String) -> Double? {
        var bytes = Array(text.utf8)[...]
        func trimSpaces() {
            while bytes.first == 32 { bytes.removeFirst() }
            while bytes.last == 32 { bytes.removeLast() }
        }
        trimSpaces()
        var factor = 1.0
        if bytes.count > 3, bytes.suffix(3).elementsEqual("mph".utf8) { factor = 1.609344; bytes.removeLast(3) }
        else if bytes.count > 4, bytes.suffix(4).elementsEqual("km/h".utf8) { bytes.removeLast(4) }
        trimSpaces()
        guard !bytes.isEmpty, bytes.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 46 }),
              let value = Double(String(decoding: bytes, as: UTF8.self)), value > 0, value * factor <= TravelProfile.maximumSpeed else { return nil }
        return value * factor
    }
}
