import Foundation

/// Errors as JSON, for scripts that asked for JSON output: `{"error": {"code": …, "exitCode": …, "message": …}}`.
public enum ErrorJSON {
    /// One compact line; `code` is a short machine name ("no_route"), `exitCode` the process's exit status.
    public static func encode(code: String, exitCode: Int32, message: String) -> String {
        JSONValue.object([("error", .object([("code", .string(code)), ("exitCode", .int(Int(exitCode))), ("message", .string(message))]))])
            .serialized(pretty: false)
    }
}
