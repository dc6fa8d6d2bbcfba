import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM, taken synchronously: blocked in every thread, then waited for on one.
public enum ShutdownSignals {
    /// Blocks SIGINT and SIGTERM in the calling thread and every thread started after (call before starting the
    /// server, so no worker thread is interrupted by them).
    public static func block() {
        var set = signals()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Waits until SIGINT or SIGTERM arrives and returns its number.
    public static func wait() -> Int32 {
        var set = signals()
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }

    private static func signals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        return set
    }
}
