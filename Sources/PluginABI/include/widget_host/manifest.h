/* widget_host/manifest.h: the manifest a plugin embeds in its ELF file.
 *
 * The host reads it from the section named WH_MANIFEST_SECTION by parsing the
 * file, without dlopen, so listing plugins never runs plugin code. It is UTF-8
 * JSON, at most WH_MANIFEST_MAX_BYTES, ending at the first NUL:
 *
 *   {
 *     "abi": "1.0",
 *     "id": "org.example.hello", "name": "Hello", "version": "1.0.0",
 *     "vendor": "Example", "description": "Says hello",
 *     "screens": [ { "id": "main", "title": "Hello", "actions": ["wave"] } ],
 *     "services": { "required": ["widget-host.log/1"], "optional": [] },
 *     "topics": { "publish": [], "subscribe": [] },
 *     "sizes": ["small", "medium"]
 *   }
 *
 * "abi" through "screens" (ids and titles) must equal what the descriptor
 * says; the host rejects a plugin whose descriptor disagrees. "actions" lists
 * what each screen offers, which validators exercise. "services" and "topics"
 * are the plugin's grants: it is given nothing it did not declare. "sizes"
 * (optional) lists the dashboard card sizes the plugin designs views for
 * (plugin.h, WH_PARAM_CARD_SIZE).
 *
 * Usage, in exactly one C file of the plugin, either the JSON as a string:
 *   WH_MANIFEST("{\"abi\":\"1.0\", ...}");
 * or, better, the manifest kept as a plain JSON file and embedded as it is
 * (the path as the assembler sees it: relative to where cc runs):
 *   WH_MANIFEST_FILE("widget.json");
 * or, with a compiler that has C23's #embed (clang 19, gcc 15), the file
 * relative to the C file, which the compiler then tracks as an input, so
 * that editing widget.json rebuilds the plugin (what `widget-host new`
 * writes for a Swift package, whose build knows nothing of .incbin):
 *   WH_MANIFEST_BYTES {
 *   #embed "../../widget.json"
 *       , 0 };
 */
#ifndef WIDGET_HOST_MANIFEST_H
#define WIDGET_HOST_MANIFEST_H

#include "version.h"

WH_BEGIN_DECLS

#define WH_MANIFEST_SECTION "widget_host_manifest"
#define WH_MANIFEST_MAX_BYTES 65536

/* Defined by WH_MANIFEST in the plugin's own image: its manifest text. */
__attribute__((visibility("hidden"))) const char *wh_manifest_json(void);

/* `used` keeps the compiler from dropping the array, `retain` keeps the
 * linker's --gc-sections from dropping the section. The symbol is hidden so
 * that it never clashes with another image's; wh_manifest_json() is the
 * plugin's own way to read it. WH_EXTERN_C gives the array external linkage
 * in C++ too, where a const array would otherwise be file-local. */
#define WH_MANIFEST(json_literal)                                              \
    WH_EXTERN_C __attribute__((section(WH_MANIFEST_SECTION), used, retain,     \
                               visibility("hidden")))                          \
    const char wh_manifest_json_bytes[] = json_literal;                        \
    __attribute__((visibility("hidden"))) const char *wh_manifest_json(void) { \
        return wh_manifest_json_bytes;                                         \
    }

/* The same, with the bytes of a file placed by the assembler's .incbin and
 * a NUL after them. "R" is the assembler's spelling of `retain`. */
#define WH_MANIFEST_FILE(path)                                                 \
    __asm__(".pushsection " WH_MANIFEST_SECTION ",\"aR\",@progbits\n"          \
            ".hidden wh_manifest_json_bytes\n"                                 \
            ".globl wh_manifest_json_bytes\n"                                  \
            "wh_manifest_json_bytes:\n"                                        \
            ".incbin \"" path "\"\n"                                            \
            ".byte 0\n"                                                        \
            ".popsection");                                                    \
    extern const char wh_manifest_json_bytes[]                                 \
        __attribute__((visibility("hidden")));                                 \
    __attribute__((visibility("hidden"))) const char *wh_manifest_json(void) { \
        return wh_manifest_json_bytes;                                         \
    }

/* The start of the manifest array's definition; the plugin writes its
 * bytes, ending with a 0, between braces. #embed is C23, an extension that
 * clang warns about in older modes: the pragma keeps -Werror builds clean. */
#ifdef __clang__
#define WH_ALLOW_EMBED_ _Pragma("clang diagnostic ignored \"-Wc23-extensions\"")
#else
#define WH_ALLOW_EMBED_
#endif
#define WH_MANIFEST_BYTES                                                      \
    WH_ALLOW_EMBED_                                                            \
    WH_EXTERN_C const char wh_manifest_json_bytes[]                            \
        __attribute__((visibility("hidden")));                                 \
    __attribute__((visibility("hidden"))) const char *wh_manifest_json(void) { \
        return wh_manifest_json_bytes;                                         \
    }                                                                          \
    WH_EXTERN_C __attribute__((section(WH_MANIFEST_SECTION), used, retain,     \
                               visibility("hidden")))                          \
    const char wh_manifest_json_bytes[] =

WH_END_DECLS

#endif
