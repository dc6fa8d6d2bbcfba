import Foundation

/// A value computed on first use and kept (thread-safe).
final class ComputedOnce<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?

    /// The value, computed by `make` the first time.
    func value(_ make: () -> Value) -> Value {
        lock.lock(); defer { lock.unlock() }
        if let stored { return stored }
        let made = make()
        stored = made
        return made
    }
}
