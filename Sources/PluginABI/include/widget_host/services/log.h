/* widget_host/services/log.h: the host's log, "widget-host.log/1".
 * Messages are attributed to the plugin that owns the wh_host.
 *
 * This table never changes: how a service grows is the growth rule in version.h. */
#ifndef WIDGET_HOST_SERVICES_LOG_H
#define WIDGET_HOST_SERVICES_LOG_H

#include "../host.h"

WH_BEGIN_DECLS

#define WH_SERVICE_LOG "widget-host.log/1"

typedef enum wh_log_level {
    WH_LOG_DEBUG = 0,
    WH_LOG_INFO = 1,
    WH_LOG_WARNING = 2,
    WH_LOG_ERROR = 3,
} wh_log_level;

typedef struct wh_log_v1 {
    /* Logs a UTF-8 message; invalid UTF-8 is replaced, not rejected.
     * message is borrowed for the call only.
     * [any-thread] */
    void (*log)(const wh_host *host, int32_t level, const char *message);
} wh_log_v1;

WH_SERVICE_REF(log, wh_log_v1, WH_SERVICE_LOG)

static inline void wh_log(wh_log_ref ref, int32_t level, const char *message) {
    if (ref.table) ref.table->log(ref.host, level, message);
}

WH_END_DECLS

#endif
