/* Pins the ABI 1.0 layout: a change that moves a field fails the build here
 * rather than breaking plugins that were built against the old layout. */
#include "widget_host/widget_host.h"

#if UINTPTR_MAX == 0xFFFFFFFFFFFFFFFFu
_Static_assert(offsetof(wh_plugin_descriptor, abi_major) == 0, "abi_major moved");
_Static_assert(offsetof(wh_plugin_descriptor, abi_minor) == 4, "abi_minor moved");
_Static_assert(offsetof(wh_plugin_descriptor, struct_size) == 8, "struct_size moved");
_Static_assert(offsetof(wh_plugin_descriptor, id) == 16, "id moved");
_Static_assert(WH_DESCRIPTOR_SIZE_1_0 == 104, "ABI 1.0 descriptor size changed");
_Static_assert(offsetof(wh_plugin_descriptor, query) == 104, "query must follow destroy");
_Static_assert(offsetof(wh_host, get_service) == 24, "get_service moved");
#endif
