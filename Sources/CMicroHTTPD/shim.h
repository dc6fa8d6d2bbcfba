// GNU libmicrohttpd (Debian: libmicrohttpd-dev at build time, libmicrohttpd12 to serve), loaded with dlopen the first
// time a server starts (shim.c), not linked: the library pulls in GnuTLS and nine more libraries whose loading and
// constructors every `wayfinder` process would otherwise pay for at start-up (about 1.3 ms), serving or not. The MHD_*
// functions Swift calls are defined in shim.c and forward to the loaded library; the variadic ones
// (MHD_start_daemon, MHD_get_daemon_info, MHD_get_connection_info), which Swift cannot call, are called there.
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdint.h>
#include <stdarg.h>
#include <sys/resource.h>
#include <microhttpd.h>

/// Loads libmicrohttpd (once); NULL when it is loaded, else why it could not be (a message naming the library).
const char *wayfinder_mhd_load_error(void);

/// The port the daemon listens on (useful after asking for port 0), or 0 when unknown.
uint16_t wayfinder_mhd_bound_port(struct MHD_Daemon *daemon);

/// How many connections the daemon holds open right now.
unsigned int wayfinder_mhd_current_connections(struct MHD_Daemon *daemon);

/// The socket of a connection, or -1 when unknown.
int wayfinder_mhd_connection_fd(struct MHD_Connection *connection);

/// The URI log callback's type (libmicrohttpd declares it only in a comment).
typedef void *(*wayfinder_mhd_uri_logger)(void *cls, const char *uri, struct MHD_Connection *connection);

/// Starts the daemon with every option Wayfinder sets, all closures `cls` (here in C: MHD_start_daemon is variadic
/// and several options are function pointers). A thread pool of `threads` workers when more than one. NULL when the
/// daemon does not start, or libmicrohttpd cannot be loaded (then `wayfinder_mhd_load_error()` says why, and this
/// writes it to standard error).
struct MHD_Daemon *wayfinder_mhd_start(unsigned int flags, uint16_t port, const struct sockaddr_in *address,
                                       MHD_AccessHandlerCallback handler, void *cls, unsigned int threads,
                                       size_t memory_limit, unsigned int timeout, unsigned int connection_limit,
                                       unsigned int per_address_limit, MHD_RequestCompletedCallback completed,
                                       MHD_NotifyConnectionCallback notify, wayfinder_mhd_uri_logger uri_logger);

/// Raises the soft limit on open files towards `wanted` (up to the hard limit); returns the soft limit now.
static inline unsigned long wayfinder_raise_open_files(unsigned long wanted) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 1024;
    if (limit.rlim_cur < wanted) {
        struct rlimit raised = limit;
        raised.rlim_cur = (limit.rlim_max == RLIM_INFINITY || wanted < limit.rlim_max) ? wanted : limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
    }
    return limit.rlim_cur == RLIM_INFINITY ? wanted : (unsigned long) limit.rlim_cur;
}
