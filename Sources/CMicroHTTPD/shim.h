// GNU libmicrohttpd (Debian: libmicrohttpd-dev), and the few calls Swift cannot make directly because they are
// variadic (MHD_start_daemon, MHD_get_daemon_info, MHD_get_connection_info).
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdint.h>
#include <stdarg.h>
#include <sys/resource.h>
#include <microhttpd.h>

/// The port the daemon listens on (useful after asking for port 0), or 0 when unknown.
static inline uint16_t wayfinder_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/// How many connections the daemon holds open right now.
static inline unsigned int wayfinder_mhd_current_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info ? info->num_connections : 0;
}

/// The socket of a connection, or -1 when unknown.
static inline int wayfinder_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/// The URI log callback's type (libmicrohttpd declares it only in a comment).
typedef void *(*wayfinder_mhd_uri_logger)(void *cls, const char *uri, struct MHD_Connection *connection);

/// Starts the daemon with every option Wayfinder sets, all closures `cls` (here in C: MHD_start_daemon is variadic
/// and several options are function pointers). A thread pool of `threads` workers when more than one.
static inline struct MHD_Daemon *wayfinder_mhd_start(unsigned int flags, uint16_t port, const struct sockaddr_in *address,
                                                     MHD_AccessHandlerCallback handler, void *cls, unsigned int threads,
                                                     size_t memory_limit, unsigned int timeout, unsigned int connection_limit,
                                                     unsigned int per_address_limit, MHD_RequestCompletedCallback completed,
                                                     MHD_NotifyConnectionCallback notify, wayfinder_mhd_uri_logger uri_logger) {
    return MHD_start_daemon(flags, port, NULL, NULL, handler, cls,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_SOCK_ADDR, (const struct sockaddr *) address,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, cls,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_logger, cls,
                            threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END, threads,
                            MHD_OPTION_END);
}

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
