#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Wayfinder

/// SIGINT and SIGTERM during an import: the temporary file beside the output (`MapImporter`) is removed, then
/// the process ends as the signal would have ended it (a shell sees 130 or 143).
enum CleanupOnSignal {
    /// Blocks both signals in this thread and every thread started after it (call before any other thread starts),
    /// and waits for them on a thread of its own.
    static func install() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let blocked = set
        let waiter = Thread {
            var signals = blocked
            var received: Int32 = 0
            while sigwait(&signals, &received) != 0 {}
            MapImporter.removeTemporaryFilesForExit()
            // Die of the signal itself: default action, unblocked in this thread, raised at this thread.
            signal(received, SIG_DFL)
            var one = sigset_t()
            sigemptyset(&one)
            sigaddset(&one, received)
            pthread_sigmask(SIG_UNBLOCK, &one, nil)
            raise(received)
            _exit(128 + received)
        }
        waiter.start()
    }
}
