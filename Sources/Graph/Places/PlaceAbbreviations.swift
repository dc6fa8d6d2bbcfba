/// The usual abbreviations of street kinds, titles and station words in names and addresses, as folded tokens: a
/// query word that is one also matches the words it stands for ("av" → `avenida`, `avenue`), and a full word its
/// abbreviations (`avenida` → "av"), so "Av. Ipiranga" finds "Avenida Ipiranga", "Avenida Bastian" finds "Av
/// Bastian", "St. Vitus" finds "Sankt-Vitus-Gasse" and "Bd des Moulins" finds "Boulevard des Moulins".
enum PlaceAbbreviations {
    /// Each abbreviation with the words it stands for (English, French, German, Portuguese, Spanish).
    static let groups: [(abbreviations: [String], words: [String])] = [
        (["av", "ave", "avd", "avda"], ["avenida", "avenue"]),
        (["r"], ["rua", "rue"]),
        (["rd"], ["road"]),
        (["ln"], ["lane"]),
        (["trav", "tv"], ["travessa"]),
        (["bd", "bld", "blvd", "boul"], ["boulevard"]),
        (["pl"], ["place", "platz", "plaza"]),
        (["pc", "pca"], ["praca"]),
        (["lgo"], ["largo"]),
        (["estr"], ["estrada"]),
        (["rod"], ["rodovia"]),
        (["ch"], ["chemin"]),
        (["str"], ["strasse"]),
        (["st"], ["saint", "sankt", "street"]),
        (["ste"], ["sainte"]),
        (["sta"], ["santa"]),
        (["sto"], ["santo"]),
        (["mt"], ["mount", "mont", "monte"]),
        (["ft"], ["fort"]),
        (["dr"], ["doktor", "doctor", "doutor", "drive"]),
        (["prof"], ["professor"]),
        (["cel"], ["coronel"]),
        (["gen", "gal"], ["general"]),
        (["eng"], ["engenheiro"]),
        (["sen"], ["senador"]),
        (["pres"], ["presidente"]),
        (["dep"], ["deputado"]),
        (["hbf"], ["hauptbahnhof"]),
        (["bf", "bhf"], ["bahnhof"]),
    ]

    /// Every abbreviation and every full word with the tokens it also matches.
    static let alternatives: [String: [[UInt8]]] = {
        var result: [String: [[UInt8]]] = [:]
        for (abbreviations, words) in groups {
            for abbreviation in abbreviations { result[abbreviation, default: []] += words.map { Array($0.utf8) } }
            for word in words { result[word, default: []] += abbreviations.map { Array($0.utf8) } }
        }
        return result
    }()

    /// The tokens a folded query word also matches (empty for most words).
    static func alternatives(of word: UnsafeBufferPointer<UInt8>) -> [[UInt8]] {
        guard word.count <= 12 else { return [] }
        return alternatives[String(decoding: word, as: UTF8.self)] ?? []
    }
}
