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
    "\"sizes\": [\"small\", \"medium\", \"large\"],"
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
    "\"settings\": ["
        "{\"key\": \"source\", \"type\": \"string\", \"default\": \"network\", \"values\": [\"network\", \"sample\"], \"help\": \"sample shows made-up prices, labelled as such, and fetches nothing\"},"
        "{\"key\": \"priceURL\", \"type\": \"string\", \"default\": \"https://api.coinbase.com/v2/prices/BTC-USD/spot\", \"help\": \"where the market price is fetched; a local file server or mirror on 127.0.0.1 works too\"},"
        "{\"key\": \"priceFormat\", \"type\": \"string\", \"default\": \"auto\", \"values\": [\"coincap\", \"coinbase\", \"kraken\", \"binance\", \"auto\"], \"help\": \"how the price endpoint answers; auto tells by the reply\"},"
        "{\"key\": \"refreshSeconds\", \"type\": \"integer\", \"default\": 30, \"minimum\": 1, \"maximum\": 86400, \"help\": \"seconds between two fetches of the price\"},"
        "{\"key\": \"timeoutSeconds\", \"type\": \"number\", \"default\": 5, \"minimum\": 0.1, \"maximum\": 60, \"help\": \"seconds a fetch may take before it counts as failed\"},"
        "{\"key\": \"maxResponseBytes\", \"type\": \"integer\", \"default\": 65536, \"minimum\": 256, \"maximum\": 16777216, \"help\": \"the largest reply a fetch reads\"},"
        "{\"key\": \"coinbaseURL\", \"type\": \"string\", \"default\": \"https://api.coinbase.com/v2/prices/BTC-USD/spot\", \"help\": \"Coinbase's ticker on the Exchanges screen\"},"
        "{\"key\": \"krakenURL\", \"type\": \"string\", \"default\": \"https://api.kraken.com/0/public/Ticker?pair=XBTUSD\", \"help\": \"Kraken's ticker on the Exchanges screen\"},"
        "{\"key\": \"binanceURL\", \"type\": \"string\", \"default\": \"https://api.binance.com/api/v3/ticker/price?symbol=BTCUSDT\", \"help\": \"Binance's ticker on the Exchanges screen\"}"
    "],"
    "\"http\": {\"hosts\": [\"api.coinbase.com\", \"api.kraken.com\", \"api.binance.com\", \"127.0.0.1\", \"localhost\"]}"
"}")
