import Foundation
import Wayfinder

/// Douglas–Peucker line simplification in a local metric projection.
public enum GeometrySimplifier {
    /// The points of `line` that keep it within `tolerance` metres of the original; the ends are always kept.
    public static func simplify(_ line: [Coordinate], tolerance: Double) -> [Coordinate] {
        guard line.count > 2, tolerance > 0 else { return line }
        let metresPerDegree = 111_195.0
        let cosine = cos(line[0].latitude * Double.pi / 180)
        let xs = line.map { $0.longitude * cosine * metresPerDegree }, ys = line.map { $0.latitude * metresPerDegree }
        var keep = [Bool](repeating: false, count: line.count)
        keep[0] = true; keep[line.count - 1] = true
        var stack = [(0, line.count - 1)]
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            let dx = xs[last] - xs[first], dy = ys[last] - ys[first]
            let lengthSquared = dx * dx + dy * dy
            var worst = -1.0, worstIndex = first
            for i in (first + 1)..<last {
                var t = lengthSquared > 0 ? ((xs[i] - xs[first]) * dx + (ys[i] - ys[first]) * dy) / lengthSquared : 0
                t = min(1, max(0, t))
                let ex = xs[first] + t * dx - xs[i], ey = ys[first] + t * dy - ys[i]
                let d = ex * ex + ey * ey
                if d > worst { worst = d; worstIndex = i }
            }
            if worst > tolerance * tolerance {
                keep[worstIndex] = true
                stack.append((first, worstIndex)); stack.append((worstIndex, last))
            }
        }
        return line.indices.filter { keep[$0] }.map { line[$0] }
    }
}
