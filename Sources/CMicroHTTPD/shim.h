// GNU libmicrohttpd (Debian: libmicrohttpd-dev), and the few daemon queries Swift cannot call directly
// because MHD_get_daemon_info is variadic.
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdint.h>
#include <stdarg.h>
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
