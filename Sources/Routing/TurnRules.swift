import Graph

/// A profile's turn restrictions as forbidden sequences of directed edges, matched during a search by an
/// Aho–Corasick automaton, so via-node and via-way restrictions are honoured exactly.
///
/// Mandatory (`only_*`) restrictions become prohibitions of every other exit, U-turn included; several
/// mandatory restrictions with the same approach allow the union of their exits.
public struct TurnRules: Sendable {
    /// The forbidden directed-edge sequences (`edge << 1 | reversed`).
    public let patterns: [[UInt32]]
    /// Trie node 0 is the root. `children` maps (node, symbol) to a node.
    private let children: [UInt64: Int32]
    private let failure: [Int32]
    private let depth: [Int32]
    /// Whether reaching the node completes a forbidden pattern (itself or through its failure chain).
    private let forbidden: [Bool]
    /// For a directed edge that starts a pattern: its depth-1 node.
    private let firstSymbols: [UInt32: Int32]
    /// The directed edge read last to reach each trie node.
    private let lastSymbol: [UInt32]
    /// One bit per directed edge that appears in some pattern: any other edge starts and leads back to the root at
    /// once, without a hash look-up (most edges of a road graph).
    private let inSomePattern: [UInt64]

    /// Number of trie nodes (0 when there are no restrictions).
    public var nodeCount: Int { failure.count }
    /// Whether the profile has no restrictions at all.
    public var isEmpty: Bool { patterns.isEmpty }

    /// Builds the rules of one profile of `graph`.
    public init(graph: RoadGraph, profile: ProfileGraph) {
        var prohibited: [[UInt32]] = []
        var mandatory: [[UInt32]: Set<UInt32>] = [:]
        for r in 0..<profile.restrictionCount {
            let (kind, path) = profile.restriction(r)
            guard path.count >= 2 else { continue }
            switch kind {
            case .prohibitory: prohibited.append(path)
            case .mandatory: mandatory[Array(path.dropLast()), default: []].insert(path[path.count - 1])
            }
        }
        // Every exit the mandatory restrictions do not allow becomes a prohibition.
        for prefix in mandatory.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let allowed = mandatory[prefix]!
            let last = prefix[prefix.count - 1]
            let edge = Int(last >> 1)
            let node = last & 1 == 0 ? graph.edgeTo[edge] : graph.edgeFrom[edge]
            for position in Int(profile.firstIncidence[Int(node)])..<Int(profile.firstIncidence[Int(node) + 1]) {
                let entry = profile.incidence[position]
                let e = Int(entry >> 1)
                let leaving: UInt32 = entry & 1 == 0 ? UInt32(e) << 1 : UInt32(e) << 1 | 1
                let open = entry & 1 == 0 ? profile.timeForward[e] != closedEdge : profile.timeBackward[e] != closedEdge
                if open && !allowed.contains(leaving) { prohibited.append(prefix + [leaving]) }
            }
        }
        self.init(patterns: prohibited)
    }

    /// Builds the automaton over explicit forbidden sequences.
    public init(patterns: [[UInt32]]) {
        self.patterns = patterns
        var children: [UInt64: Int32] = [:]
        var depth: [Int32] = [0]
        var terminal: [Bool] = [false]
        var childLists: [[(UInt32, Int32)]] = [[]]
        var lastSymbol: [UInt32] = [0]
        for pattern in patterns {
            var node: Int32 = 0
            for symbol in pattern {
                let key = UInt64(UInt32(node)) << 32 | UInt64(symbol)
                if let next = children[key] { node = next; continue }
                let next = Int32(depth.count)
                children[key] = next
                childLists[Int(node)].append((symbol, next))
                depth.append(depth[Int(node)] + 1)
                lastSymbol.append(symbol)
                terminal.append(false)
                childLists.append([])
                node = next
            }
            terminal[Int(node)] = true
        }
        // Failure links, breadth first.
        var failure = [Int32](repeating: 0, count: depth.count)
        var forbidden = terminal
        var queue: [Int32] = childLists[0].map(\.1)
        var head = 0
        while head < queue.count {
            let node = queue[head]; head += 1
            forbidden[Int(node)] = forbidden[Int(node)] || forbidden[Int(failure[Int(node)])]
            for (symbol, child) in childLists[Int(node)] {
                var f = failure[Int(node)]
                while true {
                    if let next = children[UInt64(UInt32(f)) << 32 | UInt64(symbol)], next != child { failure[Int(child)] = next; break }
                    if f == 0 { failure[Int(child)] = 0; break }
                    f = failure[Int(f)]
                }
                queue.append(child)
            }
        }
        self.children = children
        self.failure = patterns.isEmpty ? [] : failure
        self.depth = depth
        self.forbidden = forbidden
        var firsts: [UInt32: Int32] = [:]
        for (symbol, child) in childLists[0] { firsts[symbol] = child }
        firstSymbols = firsts
        self.lastSymbol = lastSymbol
        var bits = [UInt64](repeating: 0, count: Int(patterns.lazy.flatMap { $0 }.max() ?? 0) / 64 + 1)
        for pattern in patterns { for symbol in pattern { bits[Int(symbol) / 64] |= 1 << UInt64(symbol % 64) } }
        inSomePattern = bits
    }

    /// Whether directed edge `symbol` appears in no pattern (then no state advances along it but to the root).
    @inline(__always)
    private func inNoPattern(_ symbol: UInt32) -> Bool {
        let word = Int(symbol / 64)
        return word >= inSomePattern.count || inSomePattern[word] & (1 << UInt64(symbol % 64)) == 0
    }

    /// The directed edge that leads into trie node `state` (meaningful for states deeper than the root).
    @inline(__always)
    public func symbol(of state: Int32) -> UInt32 { lastSymbol[Int(state)] }

    /// The automaton state after reading `symbol` alone.
    @inline(__always)
    public func start(_ symbol: UInt32) -> Int32 { inNoPattern(symbol) ? 0 : firstSymbols[symbol] ?? 0 }

    /// The state after reading `symbol` in `state`, or nil when that completes a forbidden sequence.
    @inline(__always)
    public func advance(_ state: Int32, _ symbol: UInt32) -> Int32? {
        if inNoPattern(symbol) { return 0 }
        var node = state
        while true {
            if let next = children[UInt64(UInt32(node)) << 32 | UInt64(symbol)] {
                return forbidden[Int(next)] ? nil : next
            }
            if node == 0 { return 0 }
            node = failure[Int(node)]
        }
    }

    /// Whether the state is the one `start(symbol)` gives, i.e. no longer history matters.
    @inline(__always)
    public func isShallow(_ state: Int32) -> Bool { state == 0 || depth[Int(state)] <= 1 }
}
