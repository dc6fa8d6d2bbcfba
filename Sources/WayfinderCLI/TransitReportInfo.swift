import Transit
import Wayfinder

extension TransitReport {
    /// The lines of a timetable read from a graph file (`wayfinder info`): those of its `TimetableSummary`.
    static func lines(_ meta: TransitMetadata, timetable: Timetable) -> [String] { lines(TimetableSummary(timetable)) }
}
