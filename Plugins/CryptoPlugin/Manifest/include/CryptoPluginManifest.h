/* The manifest is ../../widget.json, which manifest.c embeds in the ELF section the host reads.
 * The plugin reads its own copy through wh_manifest_json() (widget_host/manifest.h). */
#include "widget_host/manifest.h"
