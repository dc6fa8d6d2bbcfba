import Wayfinder

// The server writes its JSON with Wayfinder's `JSONValue` and `JSONWriter` (sorted keys, fixed decimals, RFC 8259
// escaping), the one JSON writer of every front end; these are OSRM's conventions on top of it.
extension JSONValue {
    /// A number rounded to `decimals` places (OSRM rounds durations and distances to 0.1, coordinates to 1e-6);
    /// not finite → null.
    public static func rounded(_ value: Double, _ decimals: Int) -> JSONValue { .number(value, decimals: decimals) }

    /// A `[longitude, latitude]` pair with six decimals, as OSRM writes locations.
    public static func location(latitude: Double, longitude: Double) -> JSONValue {
        .array([.number(longitude, decimals: 6), .number(latitude, decimals: 6)])
    }
}
