/// Writes place search answers as JSON (`docs/schemas/places.schema.json`) or as a GeoJSON FeatureCollection with
/// Photon's property names (`name`, `osm_type`, `osm_id`, `street`, `housenumber`, `postcode`, `city`…), and the
/// category list as JSON; through the one `JSONWriter`.
public enum LocalSearchEncoder {
    /// `{"places": [{name, category, category_key, lat, lon, street, housenumber, postcode, city, source, osm_id,
    /// stop_id?, distance?}]}`.
    public static func json(_ response: LocalSearchResponse) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject(); w.key("places"); w.beginArray()
        for item in response.mapItems {
            w.beginObject()
            w.key("category"); w.string(item.category)
            w.key("category_key"); w.string(item.categoryKey)
            w.key("city"); w.string(item.city)
            if let distance = item.distance { w.key("distance"); w.numberOrNull(distance, decimals: 1) }
            w.key("housenumber"); w.string(item.houseNumber)
            w.key("lat"); w.numberOrNull(item.coordinate.latitude, decimals: 7)
            w.key("lon"); w.numberOrNull(item.coordinate.longitude, decimals: 7)
            w.key("name"); w.string(item.name)
            w.key("osm_id"); w.int(Int(item.osmID))
            w.key("postcode"); w.string(item.postcode)
            w.key("source"); w.string(item.source.rawValue)
            if let stop = item.stopID { w.key("stop_id"); w.string(stop) }
            w.key("street"); w.string(item.street)
            w.endObject()
        }
        w.endArray(); w.endObject()
        return w.bytes
    }

    /// A GeoJSON FeatureCollection of Point features, Photon's shape: `osm_type` is N, W or R (S for a GTFS stop).
    public static func geoJSON(_ response: LocalSearchResponse) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject(); w.key("features"); w.beginArray()
        for item in response.mapItems {
            w.beginObject()
            w.key("geometry"); w.beginObject()
            w.key("coordinates"); w.beginArray()
            w.numberOrNull(item.coordinate.longitude, decimals: 7); w.numberOrNull(item.coordinate.latitude, decimals: 7)
            w.endArray()
            w.key("type"); w.string("Point")
            w.endObject()
            w.key("properties"); w.beginObject()
            w.key("category"); w.string(item.category)
            w.key("city"); w.string(item.city)
            if let distance = item.distance { w.key("distance"); w.numberOrNull(distance, decimals: 1) }
            w.key("housenumber"); w.string(item.houseNumber)
            w.key("name"); w.string(item.name)
            w.key("osm_id"); w.int(Int(item.osmID))
            w.key("osm_key"); w.string(item.categoryKey)
            w.key("osm_type"); w.string(osmTypeLetter(item.source))
            w.key("osm_value"); w.string(item.category)
            w.key("postcode"); w.string(item.postcode)
            if let stop = item.stopID { w.key("stop_id"); w.string(stop) }
            w.key("street"); w.string(item.street)
            w.endObject()
            w.key("type"); w.string("Feature")
            w.endObject()
        }
        w.endArray()
        w.key("type"); w.string("FeatureCollection")
        w.endObject()
        return w.bytes
    }

    /// `{"categories": [{key, value, count}]}`.
    public static func json(_ categories: [PlaceCategoryCount]) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject(); w.key("categories"); w.beginArray()
        for c in categories {
            w.beginObject(); w.key("count"); w.int(c.count); w.key("key"); w.string(c.key); w.key("value"); w.string(c.value); w.endObject()
        }
        w.endArray(); w.endObject()
        return w.bytes
    }

    /// Photon's letter for an element type.
    static func osmTypeLetter(_ source: MapItem.Source) -> String {
        switch source {
        case .node: return "N"
        case .way: return "W"
        case .relation: return "R"
        case .transitStop: return "S"
        }
    }
}
