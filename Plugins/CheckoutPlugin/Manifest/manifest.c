#include "widget_host/manifest.h"

/* ../widget.json, embedded by the compiler, which tracks it: editing it
 * rebuilds the plugin (the way `widget-host new` writes it, manifest.h).
 *
 * Why widget.json says what it says (JSON holds no comments):
 * http.hosts: no fetch of its own (it asks for no http service); the host
 * fetches the logo picture for `serve` only from these: Afterpay's static
 * host, and this machine's loopback so that a person (and the tests) can
 * serve their own with `--set checkout.logoURL=http://127.0.0.1:PORT/...`.
 */
WH_MANIFEST_BYTES {
#embed "../widget.json"
    , 0 };
