/* widget_host/services/config.h: the plugin's own section of the host
 * configuration, "widget-host.config/1". A plugin never sees another
 * plugin's section.
 *
 * This table never changes: how a service grows is the growth rule in version.h. */
#ifndef WIDGET_HOST_SERVICES_CONFIG_H
#define WIDGET_HOST_SERVICES_CONFIG_H

#include "../host.h"
#include "../output.h"

WH_BEGIN_DECLS

#define WH_SERVICE_CONFIG "widget-host.config/1"

typedef struct wh_config_v1 {
    /* Writes the JSON text of the value at key in the plugin's section to
     * out, or the whole section (a JSON object) when key is NULL.
     * Returns 1 if it wrote a value, 0 if the key is absent.
     * key and out are borrowed for the call. [any-thread] */
    int32_t (*get)(const wh_host *host, const char *key, const wh_output *out);
} wh_config_v1;

WH_SERVICE_REF(config, wh_config_v1, WH_SERVICE_CONFIG)

static inline int32_t wh_config_get(wh_config_ref ref, const char *key, const wh_output *out) {
    return ref.table ? ref.table->get(ref.host, key, out) : WH_NO_SERVICE;
}

WH_END_DECLS

#endif
