/* widget_host/plugin.h: the plugin's side of the contract.
 *
 * A plugin is a shared library that exports one function, widget_host_entry,
 * returning a descriptor: who the plugin is, which screens it provides, and the
 * functions that run its instances. It also embeds a manifest (manifest.h) that
 * repeats the descriptor's facts so a host can list it without loading it.
 *
 * Only C types cross this boundary: no C++ or Swift types, no exceptions, no
 * longjmp across it. Every string is NUL-terminated UTF-8.
 */
#ifndef WIDGET_HOST_PLUGIN_H
#define WIDGET_HOST_PLUGIN_H

#include <stddef.h>
#include <stdint.h>
#include "version.h"
#include "host.h"
#include "output.h"

WH_BEGIN_DECLS

/* Results of the instance functions. Anything else is treated as WH_FAILED. */
typedef enum wh_status {
    WH_OK = 0,
    WH_UNKNOWN_SCREEN = 1,   /* render: the screen id is not one of the plugin's */
    WH_UNKNOWN_ACTION = 2,   /* handle_action: the action id is not known */
    WH_INVALID_VALUE = 3,    /* handle_action: the value was refused */
    WH_FAILED = 4,           /* anything else; the plugin should log why */
    WH_UNKNOWN_QUERY = 5,    /* query: the query id is not one the plugin answers */
} wh_status;

typedef struct wh_screen {
    /* [a-z0-9_-], 1 to 64 bytes; unique within the plugin. */
    const char *id;
    /* Shown to people. */
    const char *title;
} wh_screen;

/* One live instance of a plugin. Opaque to the host: the plugin allocates it in
 * create() and frees it in destroy(). */
typedef struct wh_plugin wh_plugin;

/* Ownership: the descriptor, its strings and its screens belong to the plugin
 * and must stay valid and unchanged for as long as the image is loaded. The
 * host loads with RTLD_NODELETE and never unloads, so static storage is right.
 *
 * Threads: the host calls create, render, handle_action, on_event and destroy
 * of one instance on one thread (the host's main thread), one call at a time.
 * Different instances may be driven from different threads. The plugin may
 * call back into the host's services from inside these calls. */
typedef struct wh_plugin_descriptor {
    /* ABI the plugin was built against and sizeof(wh_plugin_descriptor) as it
     * built it. These three fields never move. */
    uint32_t abi_major;
    uint32_t abi_minor;
    uint32_t struct_size;

    uint32_t screen_count;

    /* Reverse-DNS, such as "org.widgethost.crypto": two or more dot-separated
     * segments of [a-z0-9_-], each starting with a letter or digit, 3 to 128
     * bytes in all. */
    const char *id;
    const char *name;         /* display name, 1 to 128 bytes */
    const char *version;      /* semantic version, such as "1.2.0" */
    const char *vendor;       /* NULL when the manifest has no vendor */
    const char *description;
    const wh_screen *screens; /* screen_count entries; the first is the default */

    /* Creates an instance. host stays valid until destroy() of this instance.
     * Returns NULL on failure (the plugin should log why first).
     * [main-thread] */
    wh_plugin *(*create)(const wh_host *host);

    /* Renders screen_id into a view description: UTF-8 JSON written to out,
     * in as many write() calls as the plugin likes. params_json is a JSON
     * object (never NULL; "{}" when there are none). Both strings and out are
     * borrowed for the call only. [main-thread] */
    int32_t (*render)(wh_plugin *plugin, const char *screen_id,
                      const char *params_json, const wh_output *out);

    /* Handles a person's action, such as a button press. value is NULL for an
     * action without one (a button) and UTF-8 text otherwise (a text field).
     * Both strings are borrowed for the call only. One action id is the
     * host's own, WH_ACTION_REFRESH below. [main-thread] */
    int32_t (*handle_action)(wh_plugin *plugin, const char *action_id,
                             const char *value);

    /* Delivers a bus event the instance subscribed to. payload_json is valid
     * UTF-8 JSON. Both strings are borrowed for the call only. [main-thread] */
    void (*on_event)(wh_plugin *plugin, const char *topic, const char *payload_json);

    /* Frees the instance. The host makes no call on it afterwards.
     * [main-thread] */
    void (*destroy)(wh_plugin *plugin);

    /* ---- Optional fields, appended within ABI 1.0 under the growth rule
     * (version.h): NULL, or beyond a plugin's struct_size, means "not
     * provided". ---- */

    /* Answers a host-level query with UTF-8 JSON written to out, like render.
     * Queries are defined by the host, not by the plugin, and any plugin may
     * answer any of them:
     *   "status": the widget's state as a script should see it
     *             (`launch --status`), an object whose meaning is the
     *             widget's own; each widget documents its own.
     *   "timeline": the entries a widget with a timeline will show, for
     *             `widget-host timeline --json`: {"entries": [{"date": ISO
     *             8601, "current": bool, "data": the entry's data or null}],
     *             "error": why there are none, or null}, plus any fields of
     *             the widget's own.
     *   a contract's id: the answer the plugin promised under a contract it
     *             provides (services/contract.h).
     * Returns WH_OK, WH_UNKNOWN_QUERY for a query it does not answer, or
     * WH_FAILED. [main-thread], like render. query_id and out are borrowed for
     * the call only. A query must not change what the widget shows. */
    int32_t (*query)(wh_plugin *plugin, const char *query_id, const wh_output *out);
} wh_plugin_descriptor;

/* The reserved action a host sends through handle_action when a person asks
 * for fresh data (the terminal's `r` key). value is the id of the screen the
 * person sees. A widget that can refresh starts fetching again and returns
 * WH_OK (it asks for a render when the new data is in, as for any change);
 * a widget with nothing to refresh returns WH_UNKNOWN_ACTION, as it does for
 * any action it does not know, and the host then only draws the screen
 * again. So every 1.0 plugin already answers it correctly. Action ids that
 * start with "widget-host." are the host's: a plugin does not name its own
 * actions so, and a host sends no other such id unless a later 1.x minor
 * defines it here. */
#define WH_ACTION_REFRESH "widget-host.refresh"

/* The reserved render parameter a host sets when it draws the widget as a
 * card of its dashboard: the render of the plugin's first screen carries
 * "widget-host.size" in params_json, one of "small" (one cell of the grid),
 * "medium" (two cells side by side) or "large" (two by two), as WidgetKit's
 * families. A host sets it only to a size the plugin's manifest lists under
 * "sizes" (manifest.h), so a plugin that lists none, every plugin built
 * before the parameter among them, never sees it: the host draws such a
 * plugin's first screen, rendered as always, cut to the card with a mark
 * that there is more. A plugin that lists sizes renders a view designed for
 * that space: glanceable content, no more than fits. Parameter names that
 * start with "widget-host." are the host's, as action ids are. */
#define WH_PARAM_CARD_SIZE "widget-host.size"

/* The size of the descriptor as ABI 1.0 first defined it: the smallest a
 * host accepts. Fields appended under the growth rule come after destroy. */
static const uint32_t WH_DESCRIPTOR_SIZE_1_0 =
    (uint32_t)(offsetof(wh_plugin_descriptor, destroy) + sizeof(void (*)(wh_plugin *)));

/* A descriptor that leaves the plugin's identity (id, name, version, vendor,
 * description and screens) to its embedded manifest (WH_MANIFEST_FILE in
 * manifest.h), so a C plugin states it once, in widget.json:
 *
 *     static const wh_plugin_descriptor descriptor =
 *         WH_DESCRIPTOR(create, render, handle_action, on_event, destroy, query);
 *
 * query may be NULL. The host takes a descriptor's identity from the manifest
 * only when every one of those fields is NULL (and screen_count 0); one that
 * states them must state all, and they must agree with the manifest. Hosts
 * built before this macro refuse such a descriptor ("id is NULL"). */
#define WH_DESCRIPTOR(create_fn, render_fn, action_fn, event_fn, destroy_fn, query_fn)                 \
    {WH_ABI_MAJOR, WH_ABI_MINOR, (uint32_t)sizeof(wh_plugin_descriptor), 0, NULL, NULL, NULL, NULL, NULL, \
     NULL, create_fn, render_fn, action_fn, event_fn, destroy_fn, query_fn}

/* The one exported symbol. [any-thread] It takes no arguments and returns the plugin's
 * descriptor, or NULL if the plugin cannot run here. It runs no other
 * initialisation a host could observe, may be called more than once, from any
 * thread, and must return the same pointer each time. */
#define WH_ENTRY_SYMBOL "widget_host_entry"
typedef const wh_plugin_descriptor *(*wh_entry_fn)(void);

WH_END_DECLS

#endif
