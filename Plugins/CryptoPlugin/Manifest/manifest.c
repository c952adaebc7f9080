#include "widget_host/manifest.h"

/* ../widget.json, embedded by the compiler, which tracks it: editing it
 * rebuilds the plugin (the way `widget-host new` writes it, manifest.h).
 *
 * Why widget.json says what it says (JSON holds no comments):
 * "price" is the widget; "exchanges" and "exchange" are the screens it opens
 * through the navigator. The network is optional so that a host without it
 * (or a user who denies it) gets the "Price unavailable" state, not a plugin
 * the host refuses to load; the same goes for navigation.
 *
 * http.hosts: the hosts of its default endpoints (CryptoConfiguration,
 * Exchange), and this machine's loopback, so that a person (and the tests)
 * can point the endpoints at a local server or mirror with `--set
 * crypto.priceURL=http://127.0.0.1:PORT/...`. Nothing else is reachable,
 * redirects included.
 *
 * refreshes: the host's refresh (`r`) fetches the feeds of the screen shown.
 *
 * contracts.provides: other widgets may ask for the price it knows
 * (CryptoWidget.priceContract).
 *
 * store: its own group "crypto", read-write, where it keeps its last good
 * price and its time (SavedPrice), shown as stale after a restart.
 */
WH_MANIFEST_BYTES {
#embed "../widget.json"
    , 0 };
