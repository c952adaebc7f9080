#include "widget_host/manifest.h"

/* ../widget.json, embedded by the compiler, which tracks it: editing it
 * rebuilds the plugin (the way `widget-host new` writes it, manifest.h).
 *
 * Why widget.json says what it says (JSON holds no comments):
 * The example of a contract between plugins: it shows the Bitcoin price the
 * Crypto widget knows, by asking Crypto's contract. It reaches no network
 * and holds none of Crypto's code: the host starts Crypto if it is not
 * running and carries the answer (in process, or between two isolated
 * processes). Without "contracts.requires" the host would refuse the ask.
 */
WH_MANIFEST_BYTES {
#embed "../widget.json"
    , 0 };
