/* widget_host/version.h: the version of the plugin ABI.
 *
 * Compatibility rule: a host accepts a plugin whose major equals the host's
 * major and whose minor is no newer than the host's minor. Minor versions only
 * ever append fields to the end of a struct, so every versioned struct also
 * carries its own size and a reader touches only the fields it knows.
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
 * Growth. A struct that carries struct_size grows by appending fields within
 * a major version. A service table (services/) has no size field: it never
 * changes once published; new functions come as a new table under a new id
 * ("widget-host.bus/2"), which a host may offer beside the old one. */

/* Exported with default visibility, whatever the plugin's build defaults are. */
#define WH_EXPORT WH_EXTERN_C __attribute__((visibility("default")))

#endif
