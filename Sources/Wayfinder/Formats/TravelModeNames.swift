/// The one table of travel-mode names the CLI (`--mode`), batch jobs (`mode`) and the server (URL profiles) accept.
extension TransportType {
    /// Every accepted name (lower case) with the transport type it stands for, in the order help texts list them.
    public static let acceptedNames: [(name: String, type: TransportType)] = [
        ("car", .automobile), ("driving", .automobile), ("automobile", .automobile),
        ("foot", .walking), ("walking", .walking), ("walk", .walking),
        ("transit", .transit), ("public", .transit), ("bus", .transit),
    ]

    /// The transport type a name stands for (case-insensitive), nil for a name not in `acceptedNames`.
    public init?(name: String) {
        let lower = name.lowercased()
        guard let entry = Self.acceptedNames.first(where: { $0.name == lower }) else { return nil }
        self = entry.type
    }

    /// The names accepted for this type ("car, driving, automobile").
    public var acceptedNames: [String] { Self.acceptedNames.filter { $0.type == self }.map(\.name) }
}
