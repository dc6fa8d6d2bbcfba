import Synchronization

/// A value built only once it has been asked for `uses` times (so a process that asks a few times never pays for
/// it), then stored once and shared by every thread: the snapper's own index and the router's leg tables.
final class BuiltAfterUses<Value: Sendable>: Sendable {
    private let built = AtomicLazyReference<Box>()
    private let asked = Atomic<Int>(0)

    /// The value, boxed to be stored once.
    private final class Box: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    init() {}

    /// The value if it has been built, without counting an ask.
    var current: Value? { built.load()?.value }

    /// The value once it has been asked for `uses` times (built by `build` on that ask), else nil.
    func value(after uses: Int, build: () -> Value) -> Value? {
        if let box = built.load() { return box.value }
        guard asked.add(1, ordering: .relaxed).newValue >= uses else { return nil }
        return built.storeIfNil(Box(build())).value
    }
}
