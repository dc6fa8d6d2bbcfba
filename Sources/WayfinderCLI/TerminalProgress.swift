import Foundation

/// A one-line progress display on standard error, redrawn at most ten times a second; silent when disabled.
final class TerminalProgress {
    let enabled: Bool
    private var lastDraw = 0.0
    private let start = Date()
    private var drewSomething = false

    /// Enabled only when standard error is a terminal and the user did not ask for quiet.
    init(quiet: Bool) {
        enabled = !quiet && isatty(2) == 1
    }

    /// Seconds since the display was created.
    var elapsed: Double { Date().timeIntervalSince(start) }

    /// Redraws the line with `text` (throttled unless `force`).
    func show(_ text: String, force: Bool = false) {
        guard enabled else { return }
        let now = elapsed
        if !force && now - lastDraw < 0.1 { return }
        lastDraw = now
        let width = terminalWidth()
        let line = text.count > width - 1 ? String(text.prefix(width - 1)) : text
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
        drewSomething = true
    }

    /// Clears the line so the summary starts on a clean one.
    func finish() {
        guard enabled, drewSomething else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    private func terminalWidth() -> Int {
        var size = winsize()
        if ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 10 { return Int(size.ws_col) }
        return 100
    }

    /// A bar of `width` cells filled to `fraction`.
    static func bar(_ fraction: Double, width: Int = 24) -> String {
        let filled = Int((min(1, max(0, fraction)) * Double(width)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
    }
}

/// Number and size formatting for the command-line output.
enum Format {
    /// 1234567 → "1,234,567".
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return value < 0 ? "-" + out : out
    }

    /// Bytes as "12.3 MB" (decimal units).
    static func bytes(_ value: Int64) -> String {
        let v = Double(value)
        if v >= 1e9 { return String(format: "%.2f GB", v / 1e9) }
        if v >= 1e6 { return String(format: "%.1f MB", v / 1e6) }
        if v >= 1e3 { return String(format: "%.1f kB", v / 1e3) }
        return "\(value) B"
    }

    /// Seconds as "1:05" or "1:02:03".
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "--:--" }
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    /// A fixed-point coordinate in degrees with 7 decimals.
    static func degrees(_ value: Int32) -> String { String(format: "%.7f", Double(value) * 1e-7) }
}

/// The process's peak resident memory so far, bytes.
func peakMemoryBytes() -> Int64 {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int64(usage.ru_maxrss) * 1024
}
