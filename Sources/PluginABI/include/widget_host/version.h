/* widget_host/version.h: the version of the plugin ABI, and how it grows.
 *
 * Compatibility rule: a host accepts a plugin whose major equals the host's
 * major and whose minor is no newer than the host's minor.
 *
 * The growth rule, stated here once (every header that grows points here):
 *
 *   Structs. A struct that carries struct_size (wh_plugin_descriptor,
 *   wh_host) grows within a major only by appending optional fields at its
 *   end. A reader reads a field only when the other side's struct_size
 *   covers it; a field it cannot see, or that is NULL or 0, is "not
 *   provided". So a plugin built before a field still loads (it is read as
 *   leaving the field NULL), and a host built before it ignores it.
 *
 *   The two signals. struct_size says which fields are present; abi_minor
 *   says what a plugin needs of the host. An appended optional field needs
 *   nothing, so it does not raise the minor (descriptor.query came so,
 *   within 1.0). The minor is raised only for something a plugin cannot run
 *   without; then an older host refuses that plugin instead of misreading it.
 *
 *   Service tables (services/) carry no size: a table never changes once
 *   published. New functions come as a new table under a new id
 *   ("widget-host.http/2" beside "widget-host.http/1"), which a host may
 *   offer beside the old one.
 *
 *   Names the host defines (action ids and query ids starting
 *   "widget-host.", query names such as "status") may be added within a
 *   major only where the answer every plugin already gives to an unknown one
 *   (WH_UNKNOWN_ACTION, WH_UNKNOWN_QUERY) is right.
 *
 *   Anything else (a field moved, removed or given another meaning, a table
 *   changed) is a new major.
 */
#ifndef WIDGET_HOST_VERSION_H
#define WIDGET_HOST_VERSION_H

#include <stdint.h>

#define WH_ABI_MAJOR 1u
#define WH_ABI_MINOR 0u

#if defined(__cplusplus)
#  define WH_EXTERN_C extern "C"
#  define WH_BEGIN_DECLS extern "C" {
#  define WH_END_DECLS }
#else
#  define WH_EXTERN_C
#  define WH_BEGIN_DECLS
#  define WH_END_DECLS
#endif

/* Conventions every header keeps.
 *
 * Thread tags. Every function pointer is tagged with one of:
 *   [main-thread]  the host calls it on the thread that drives the instance,
 *                  one call at a time with the instance's other calls;
 *   [any-thread]   the plugin may call it from any thread, its own included,
 *                  as long as the object it came from is valid;
 *   [call-thread]  only on the thread that received it, and only until the
 *                  call that handed it over returns;
 *   [in-call]      the plugin may call it only from inside one of the host's
 *                  [main-thread] calls to it, on that thread.
 *
 * Growth: the rule at the top of this file. */

/* Exported with default visibility, whatever the plugin's build defaults are. */
#define WH_EXPORT WH_EXTERN_C __attribute__((visibility("default")))

#endif
