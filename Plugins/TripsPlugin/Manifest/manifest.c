#include "widget_host/manifest.h"

/* ../widget.json, embedded by the compiler, which tracks it: editing it
 * rebuilds the plugin (the way `widget-host new` writes it, manifest.h).
 *
 * Why widget.json says what it says (JSON holds no comments):
 * "trip" is the widget itself; "booking" and "search" stand for the app's
 * screens its links open; "timeline" lists the entries for
 * `widget-host timeline`. The store is optional so that a host without a
 * shared container gets the "storage not found" view, not a refusal. It
 * reads the app's bookings (trips.bookings) from the store group "trips".
 * http.hosts: no fetch of its own (it asks for no http service); the host
 * fetches a hotel's photo for `serve` only from the app's image host, or
 * this machine's loopback (a local mirror, and the tests).
 */
WH_MANIFEST_BYTES {
#embed "../widget.json"
    , 0 };
