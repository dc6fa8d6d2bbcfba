import Foundation

/// Hands elements to another handler on a second thread, in batches and in order, so that XML parsing
/// and what the handler does with the elements use two cores.
///
/// Call `finish()` after the last element: it waits until the target has handled everything.
public final class PipelinedElementHandler: OSMElementHandler, @unchecked Sendable {
    private enum Element {
        case node(OSMNode)
        case way(OSMWay)
        case relation(OSMRelation)
    }

    private let target: OSMElementHandler
    private let batchSize: Int
    private let depth: Int
    @exclusivity(unchecked) private var batch: [Element] = []
    private let condition = NSCondition()
    @exclusivity(unchecked) private var queue: [[Element]] = []
    @exclusivity(unchecked) private var closed = false
    @exclusivity(unchecked) private var consumerDone = false

    /// Starts the consumer thread; `batchSize` elements travel together, at most `depth` batches wait.
    public init(target: OSMElementHandler, batchSize: Int = 2048, depth: Int = 8) {
        self.target = target
        self.batchSize = batchSize
        self.depth = depth
        batch.reserveCapacity(batchSize)
        let thread = Thread { [self] in self.consume() }
        thread.name = "wayfinder-collect"
        thread.start()
    }

    private func consume() {
        while true {
            condition.lock()
            while queue.isEmpty && !closed { condition.wait() }
            if queue.isEmpty && closed {
                consumerDone = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let next = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            for element in next {
                switch element {
                case let .node(node): target.handle(node: node)
                case let .way(way): target.handle(way: way)
                case let .relation(relation): target.handle(relation: relation)
                }
            }
        }
    }

    private func push(_ element: Element) {
        batch.append(element)
        if batch.count >= batchSize { flush() }
    }

    private func flush() {
        guard !batch.isEmpty else { return }
        condition.lock()
        while queue.count >= depth { condition.wait() }
        queue.append(batch)
        condition.broadcast()
        condition.unlock()
        batch = []
        batch.reserveCapacity(batchSize)
    }

    public func handle(node: OSMNode) { push(.node(node)) }
    public func handle(way: OSMWay) { push(.way(way)) }
    public func handle(relation: OSMRelation) { push(.relation(relation)) }

    /// Sends the last batch and waits until the target has handled every element.
    public func finish() {
        flush()
        condition.lock()
        closed = true
        condition.broadcast()
        while !consumerDone { condition.wait() }
        condition.unlock()
    }

    deinit {
        condition.lock()
        closed = true
        queue.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
