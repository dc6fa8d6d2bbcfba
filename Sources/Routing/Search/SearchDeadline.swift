import Dispatch
import Foundation

/// When a search must give up: a moment on the monotonic clock, a cancellation flag, both, or neither (`.none`).
///
/// The searches check it at their start and then every `SearchDeadline.interval` heap pops, so the hot loops pay a
/// counter test and, rarely, one clock read; past the moment (or once the flag is raised) they throw
/// `RoutingError.timedOut` (or `.cancelled`) instead of answering. A deadline is a small value: copy it into every
/// search of one request. To cancel from outside (an `async` task's cancellation handler, a client that went away),
/// keep the `SearchCancellation` and call `cancel()`; searches on any thread see it at their next check.
public struct SearchDeadline: Sendable {
    /// Heap pops between two checks inside a search (a power of two, so the test is a mask).
    public static let interval = 1024
    /// Never expires and cannot be cancelled.
    public static let none = SearchDeadline(uptimeNanoseconds: .max, cancellation: nil)

    /// The moment, in `DispatchTime.uptimeNanoseconds` (`UInt64.max`: no time limit).
    public let uptimeNanoseconds: UInt64
    /// The flag that cancels the searches when raised, if any.
    public let cancellation: SearchCancellation?

    /// A deadline at `uptimeNanoseconds` on the monotonic clock (`UInt64.max` for none), and/or a cancellation flag.
    public init(uptimeNanoseconds: UInt64, cancellation: SearchCancellation? = nil) {
        self.uptimeNanoseconds = uptimeNanoseconds
        self.cancellation = cancellation
    }

    /// A deadline `seconds` from now (at once when zero or negative; never when NaN or more than a billion seconds
    /// away), and/or a flag.
    public init(seconds: Double, cancellation: SearchCancellation? = nil) {
        let now = DispatchTime.now().uptimeNanoseconds
        let moment: UInt64
        if seconds.isNaN || seconds > 1e9 {
            moment = .max
        } else if seconds <= 0 {
            moment = now
        } else {
            moment = now + UInt64(seconds * 1e9)
        }
        self.init(uptimeNanoseconds: moment, cancellation: cancellation)
    }

    /// Searches that stop only when `cancellation` is raised.
    public init(cancellation: SearchCancellation) {
        self.init(uptimeNanoseconds: .max, cancellation: cancellation)
    }

    /// Whether this deadline can ever stop a search (false for `.none`).
    public var canExpire: Bool { uptimeNanoseconds != .max || cancellation != nil }

    /// Seconds left until the moment (`.infinity` without one; negative once past).
    public var secondsLeft: Double {
        if uptimeNanoseconds == .max { return .infinity }
        let now = DispatchTime.now().uptimeNanoseconds
        return now <= uptimeNanoseconds ? Double(uptimeNanoseconds - now) / 1e9 : -Double(now - uptimeNanoseconds) / 1e9
    }

    /// Throws `.cancelled` once the flag is raised, `.timedOut` once the moment has passed.
    @inline(__always)
    public func check() throws(RoutingError) {
        if let cancellation, cancellation.isCancelled { throw .cancelled }
        if uptimeNanoseconds != .max && DispatchTime.now().uptimeNanoseconds > uptimeNanoseconds { throw .timedOut }
    }

    /// `check()` every `interval`-th time it is called with a counter the caller advances once per heap pop.
    @inline(__always)
    func check(every count: Int) throws(RoutingError) {
        if count & (Self.interval - 1) == 0 { try check() }
    }
}

/// A flag that stops every search given a `SearchDeadline` holding it, from any thread. Raising it cannot be undone.
public final class SearchCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    public init() {}

    /// Asks every search watching this flag to stop at its next check.
    public func cancel() {
        lock.lock(); raised = true; lock.unlock()
    }

    /// Whether `cancel()` has been called.
    public var isCancelled: Bool {
        lock.lock(); defer { lock.unlock() }
        return raised
    }
}
