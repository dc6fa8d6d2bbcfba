/// A failure the command line reports to the user, with the exit code it ends with.
struct CommandError: Error {
    let message: String
    let exitCode: Int32

    /// Wrong arguments: exit code 2.
    static func usage(_ message: String) -> CommandError { CommandError(message: message, exitCode: ExitCode.usage) }
}

/// The exit codes of `wayfinder`, documented in the README.
enum ExitCode {
    static let success: Int32 = 0
    /// Something else went wrong.
    static let failure: Int32 = 1
    /// The command line is wrong.
    static let usage: Int32 = 2
    /// The input (OSM file, graph file) is missing, unreadable or malformed.
    static let badInput: Int32 = 3
    /// The output could not be written.
    static let outputFailed: Int32 = 4
    /// No route connects the stops (they lie on parts of the network that do not connect).
    static let noRoute: Int32 = 5
    /// A stop lies farther than the snapping limit from any road the mode may use.
    static let noRoad: Int32 = 6
    /// `batch`: the run finished but some jobs failed.
    static let jobsFailed: Int32 = 7
    /// `serve`: the address could not be listened on (the port is in use or needs privileges).
    static let cannotListen: Int32 = 8

    /// The short name of an exit code, as JSON errors give it (`"code"`).
    static func name(_ code: Int32) -> String {
        switch code {
        case usage: return "usage"
        case badInput: return "bad_input"
        case outputFailed: return "output_failed"
        case noRoute: return "no_route"
        case noRoad: return "no_road"
        case jobsFailed: return "jobs_failed"
        case cannotListen: return "cannot_listen"
        default: return "failure"
        }
    }
}

/// Splits arguments into options (with their values) and positionals, by a table of known options.
struct ArgumentList {
    private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments`; `valued` options take the next argument, `switches` take none.
    init(_ arguments: [String], valued: Set<String>, switches: Set<String>) throws {
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            if argument == "--" {
                // `--` ends the options: everything after it is a positional (a stop such as -30.03,-51.21).
                positionals.append(contentsOf: arguments[(i + 1)...])
                break
            }
            if argument == "-" || !argument.hasPrefix("-") || argument.dropFirst().first?.isNumber == true {
                positionals.append(argument)
            } else if let equals = argument.firstIndex(of: "="), valued.contains(String(argument[..<equals])) {
                values[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
            } else if valued.contains(argument) {
                guard i + 1 < arguments.count else { throw CommandError.usage("\(argument) needs a value") }
                values[argument] = arguments[i + 1]
                i += 1
            } else if switches.contains(argument) {
                flags.insert(argument)
            } else {
                throw CommandError.usage("unknown option \(argument)")
            }
            i += 1
        }
    }

    func value(_ name: String) -> String? { values[name] }
    func has(_ name: String) -> Bool { flags.contains(name) }
}
