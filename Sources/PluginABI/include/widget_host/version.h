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
#else
#  define WH_EXTERN_C
#endif

/* Exported with default visibility, whatever the plugin's build defaults are. */
#define WH_EXPORT WH_EXTERN_C __attribute__((visibility("default")))

#endif
