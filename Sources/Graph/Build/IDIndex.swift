/// Where an OSM id is in an array of ids (the collector's nodes, the place collector's ways), in about one step:
/// the ids' range is cut into pages of 2^shift ids, and a directory holds where each page's ids start (in id order),
/// so a look-up searches only the few ids of its page instead of all of them.
///
/// Memory is bounded whatever the ids: the directory has fewer entries than max(ids, 1024) + 2 (4 bytes each) —
/// sparse ids over a wide range make the pages wider, not the directory larger; a page holding many ids is
/// binary-searched. Ids not in increasing order are looked up through their positions sorted by id (4 more bytes an id).
struct IDIndex {
    /// How many ids (the first of the array) the index covers.
    let count: Int
    /// Whether the covered ids are in increasing order (then there is no `order`).
    let sorted: Bool
    private let minID: Int64
    private let shift: UInt64
    /// Positions (in id order) where page p's ids start, for p = 0…pages; the last entry is `count`.
    private let pageStart: [UInt32]
    /// When the ids are not sorted: their positions in id order, duplicates in array order.
    private let order: [Int32]

    /// The index of `ids` (`sorted`: in increasing order).
    init(ids: UnsafeBufferPointer<Int64>, sorted: Bool) {
        count = ids.count
        self.sorted = sorted
        order = sorted ? [] : (0..<Int32(ids.count)).sorted { a, b in
            let x = ids[Int(a)], y = ids[Int(b)]
            return x != y ? x < y : a < b
        }
        let order = self.order
        func key(_ position: Int) -> Int64 { sorted ? ids[position] : ids[Int(order[position])] }
        guard count > 0 else { minID = 0; shift = 0; pageStart = [0, 0]; return }
        minID = key(0)
        let span = UInt64(bitPattern: key(count - 1) &- minID)
        let limit = UInt64(max(count, 1024))
        var shift: UInt64 = 0
        while span >> shift >= limit { shift += 1 }
        self.shift = shift
        let pages = Int(span >> shift) + 1
        var starts = [UInt32](repeating: UInt32(count), count: pages + 1)
        var page = 0
        for position in 0..<count {
            let own = Int(UInt64(bitPattern: key(position) &- minID) >> shift)
            while page <= own { starts[page] = UInt32(position); page += 1 }
        }
        pageStart = starts
    }

    /// The position of `id` in `ids` (the first of duplicates), nil when it is not among the covered ids; `ids` is
    /// the array the index was built from.
    @inline(__always)
    func position(of id: Int64, in ids: UnsafeBufferPointer<Int64>) -> Int? {
        guard id >= minID, count > 0 else { return nil }
        let page = UInt64(bitPattern: id &- minID) >> shift
        guard page < UInt64(pageStart.count - 1) else { return nil }
        return pageStart.withUnsafeBufferPointer { starts in
            let end = Int(starts[Int(page) + 1])
            var low = Int(starts[Int(page)]), high = end
            if sorted {
                // Binary search down to a few nodes, then a scan: the first id at least `id` is in low…high.
                while high - low > 8 {
                    let mid = (low + high) >> 1
                    if ids[mid] < id { low = mid + 1 } else { high = mid }
                }
                while low < end {
                    if ids[low] >= id { return ids[low] == id ? low : nil }
                    low += 1
                }
                return nil
            }
            return order.withUnsafeBufferPointer { order in
                while low < high {
                    let mid = (low + high) >> 1
                    if ids[Int(order[mid])] < id { low = mid + 1 } else { high = mid }
                }
                return low < end && ids[Int(order[low])] == id ? Int(order[low]) : nil
            }
        }
    }

    /// `position(of:in:)` over sorted `ids` that have grown past the covered ones since the index was built (ids
    /// appended in increasing order): an id beyond the covered ones is found by bisection of the rest.
    @inline(__always)
    func position(of id: Int64, inGrown ids: UnsafeBufferPointer<Int64>) -> Int? {
        if count == ids.count || (count > 0 && id <= ids[count - 1]) { return position(of: id, in: ids) }
        var low = count, high = ids.count
        while low < high {
            let mid = (low + high) >> 1
            if ids[mid] < id { low = mid + 1 } else { high = mid }
        }
        return low < ids.count && ids[low] == id ? low : nil
    }
}
