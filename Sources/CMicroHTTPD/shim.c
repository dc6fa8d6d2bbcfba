// libmicrohttpd loaded on first use (see shim.h): the MHD_* functions Swift calls, forwarding to the library, and
// the helpers over its variadic functions.
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include "shim.h"

/// The library's functions, resolved once by `load`.
static struct {
    __typeof__(&MHD_start_daemon) start_daemon;
    __typeof__(&MHD_stop_daemon) stop_daemon;
    __typeof__(&MHD_quiesce_daemon) quiesce_daemon;
    __typeof__(&MHD_get_daemon_info) get_daemon_info;
    __typeof__(&MHD_get_connection_info) get_connection_info;
    __typeof__(&MHD_get_connection_values) get_connection_values;
    __typeof__(&MHD_lookup_connection_value) lookup_connection_value;
    __typeof__(&MHD_queue_response) queue_response;
    __typeof__(&MHD_create_response_from_buffer) create_response_from_buffer;
    __typeof__(&MHD_destroy_response) destroy_response;
    __typeof__(&MHD_add_response_header) add_response_header;
} mhd;
static pthread_once_t loading = PTHREAD_ONCE_INIT;
static char load_error[512];
static const char *library_name = "libmicrohttpd.so.12";

static void *resolve(void *handle, const char *name) {
    void *symbol = dlsym(handle, name);
    if (!symbol && !load_error[0]) {
        snprintf(load_error, sizeof load_error, "%s lacks %s (GNU libmicrohttpd 0.9.71 or later is needed)", library_name, name);
    }
    return symbol;
}

static void load(void) {
    void *handle = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "cannot load GNU libmicrohttpd (%s); install it (Debian: apt install libmicrohttpd12)",
                 why ? why : library_name);
        return;
    }
#define RESOLVE(field, name) mhd.field = (__typeof__(mhd.field)) resolve(handle, name)
    RESOLVE(start_daemon, "MHD_start_daemon");
    RESOLVE(stop_daemon, "MHD_stop_daemon");
    RESOLVE(quiesce_daemon, "MHD_quiesce_daemon");
    RESOLVE(get_daemon_info, "MHD_get_daemon_info");
    RESOLVE(get_connection_info, "MHD_get_connection_info");
    RESOLVE(get_connection_values, "MHD_get_connection_values");
    RESOLVE(lookup_connection_value, "MHD_lookup_connection_value");
    RESOLVE(queue_response, "MHD_queue_response");
    RESOLVE(create_response_from_buffer, "MHD_create_response_from_buffer");
    RESOLVE(destroy_response, "MHD_destroy_response");
    RESOLVE(add_response_header, "MHD_add_response_header");
#undef RESOLVE
}

const char *wayfinder_mhd_load_error(void) {
    pthread_once(&loading, load);
    return load_error[0] ? load_error : NULL;
}

/// Whether the library is loaded (every function below but `wayfinder_mhd_start` is reached only through a daemon
/// that started, so only after a successful load; they still check).
static int loaded(void) { return wayfinder_mhd_load_error() == NULL; }

struct MHD_Daemon *wayfinder_mhd_start(unsigned int flags, uint16_t port, const struct sockaddr_in *address,
                                       MHD_AccessHandlerCallback handler, void *cls, unsigned int threads,
                                       size_t memory_limit, unsigned int timeout, unsigned int connection_limit,
                                       unsigned int per_address_limit, MHD_RequestCompletedCallback completed,
                                       MHD_NotifyConnectionCallback notify, wayfinder_mhd_uri_logger uri_logger) {
    if (!loaded()) {
        fprintf(stderr, "wayfinder: %s\n", load_error);
        return NULL;
    }
    return mhd.start_daemon(flags, port, NULL, NULL, handler, cls,
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

uint16_t wayfinder_mhd_bound_port(struct MHD_Daemon *daemon) {
    if (!loaded()) return 0;
    const union MHD_DaemonInfo *info = mhd.get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

unsigned int wayfinder_mhd_current_connections(struct MHD_Daemon *daemon) {
    if (!loaded()) return 0;
    const union MHD_DaemonInfo *info = mhd.get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info ? info->num_connections : 0;
}

int wayfinder_mhd_connection_fd(struct MHD_Connection *connection) {
    if (!loaded()) return -1;
    const union MHD_ConnectionInfo *info = mhd.get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

MHD_socket MHD_quiesce_daemon(struct MHD_Daemon *daemon) { return loaded() ? mhd.quiesce_daemon(daemon) : MHD_INVALID_SOCKET; }

void MHD_stop_daemon(struct MHD_Daemon *daemon) { if (loaded()) mhd.stop_daemon(daemon); }

int MHD_get_connection_values(struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator,
                              void *iterator_cls) {
    return loaded() ? mhd.get_connection_values(connection, kind, iterator, iterator_cls) : -1;
}

const char *MHD_lookup_connection_value(struct MHD_Connection *connection, enum MHD_ValueKind kind, const char *key) {
    return loaded() ? mhd.lookup_connection_value(connection, kind, key) : NULL;
}

enum MHD_Result MHD_queue_response(struct MHD_Connection *connection, unsigned int status_code, struct MHD_Response *response) {
    return loaded() ? mhd.queue_response(connection, status_code, response) : MHD_NO;
}

struct MHD_Response *MHD_create_response_from_buffer(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode) {
    return loaded() ? mhd.create_response_from_buffer(size, buffer, mode) : NULL;
}

void MHD_destroy_response(struct MHD_Response *response) { if (loaded()) mhd.destroy_response(response); }

enum MHD_Result MHD_add_response_header(struct MHD_Response *response, const char *header, const char *content) {
    return loaded() ? mhd.add_response_header(response, header, content) : MHD_NO;
}
