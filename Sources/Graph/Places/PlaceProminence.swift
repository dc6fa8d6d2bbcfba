import Foundation

/// How much a place's kind weighs in the search ranking beside its text match and distance (`PlaceSearcher`): a town
/// before the street signs bearing its name, a station before the poles and platforms of its stops. The bonuses are
/// small against the text match (an exact name 1.0, a typo 0.5–0.7) and worth a few times the distance (a tenfold
/// distance costs 0.15), so they order places that match a query equally well.
public enum PlaceProminence {
    /// The bonus added to the rank of a place of category `key=value` (0 for most kinds).
    public static func bonus(key: String, value: String) -> Float {
        switch (key, value) {
        case ("place", "city"): return 0.10
        case ("place", "town"): return 0.08
        case ("place", "village"), ("place", "suburb"), ("place", "borough"), ("place", "municipality"): return 0.06
        case ("place", "quarter"), ("place", "neighbourhood"), ("place", "hamlet"), ("place", "island"): return 0.04
        case ("place", _): return 0.02
        case ("boundary", "administrative"): return 0.04
        case ("railway", "station"), ("public_transport", "station"), ("amenity", "bus_station"), ("aeroway", "aerodrome"): return 0.06
        case ("railway", "halt"): return 0.05
        case ("public_transport", "stop_area"): return 0.04
        case ("gtfs", "stop"): return 0.03
        case ("railway", "tram_stop"), ("highway", "bus_stop"), ("public_transport", "platform"): return 0.02
        case ("public_transport", "stop_position"): return 0.01
        case ("", "other"): return -0.02  // named, with no kind at all: street signs, survey points, parts of things
        default: return 0
        }
    }

    /// Whether places of `key=value` are pieces of a transit stop or station: of several such pieces with one name
    /// close together, the search gives the best ranked alone.
    static func isTransitStop(key: String, value: String) -> Bool {
        switch (key, value) {
        case ("public_transport", _), ("gtfs", "stop"), ("highway", "bus_stop"), ("amenity", "bus_station"),
             ("railway", "station"), ("railway", "halt"), ("railway", "tram_stop"), ("railway", "stop"), ("railway", "platform"):
            return true
        default:
            return false
        }
    }

    /// How close two pieces of one stop with the same name lie at most, metres.
    static let stopPieceRadius = 400.0

    /// The part of a place's rank that is not the text match: its kind's bonus less the penalty that grows with the
    /// logarithm of its distance to the point of the search, `metres` (as `PlaceSearcher` ranks).
    public static func standing(key: String, value: String, metres: Double) -> Double {
        Double(bonus(key: key, value: value) - PlaceSearcher.distancePenalty(metres))
    }
}
