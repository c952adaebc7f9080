#include "widget_host/widget_host.h"

/* "price" is the widget; "exchanges" and "exchange" are the screens it opens
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
 * price and its time (SavedPrice), shown as stale after a restart. */
WH_MANIFEST("{"
    "\"abi\": \"1.0\","
    "\"id\": \"org.widgethost.crypto\","
    "\"name\": \"Crypto\","
    "\"version\": \"0.2.0\","
    "\"sizes\": [\"small\", \"medium\"],"
    "\"vendor\": \"WidgetHost\","
    "\"description\": \"A live Bitcoin price and the exchanges that trade it.\","
    "\"screens\": ["
        "{\"id\": \"price\", \"title\": \"Bitcoin price\", \"actions\": [\"retrieve\", \"exchanges\"]},"
        "{\"id\": \"exchanges\", \"title\": \"Exchanges\", \"actions\": [\"refresh\", \"exchange\"]},"
        "{\"id\": \"exchange\", \"title\": \"Exchange\", \"actions\": [\"refresh\"]}"
    "],"
    "\"services\": {\"required\": [\"widget-host.log/1\", \"widget-host.clock/1\", \"widget-host.config/1\"],"
                  " \"optional\": [\"widget-host.clock/2\", \"widget-host.store/1\", \"widget-host.http/3\", \"widget-host.http/2\", \"widget-host.http/1\", \"widget-host.navigator/1\"]},"
    "\"topics\": {\"publish\": [], \"subscribe\": []},"
    "\"refreshes\": true,"
    "\"contracts\": {\"provides\": [\"org.widgethost.crypto.price/1\"]},"
    "\"store\": {\"groups\": {\"crypto\": \"read-write\"}},"
    "\"http\": {\"hosts\": [\"api.coinbase.com\", \"api.kraken.com\", \"api.binance.com\", \"127.0.0.1\", \"localhost\"]}"
"}")
