#include "widget_host/widget_host.h"

/* The example of a contract between plugins: it shows the Bitcoin price the
 * Crypto widget knows, by asking Crypto's contract. It reaches no network
 * and holds none of Crypto's code: the host starts Crypto if it is not
 * running and carries the answer (in process, or between two isolated
 * processes). Without "contracts.requires" the host would refuse the ask. */
WH_MANIFEST("{"
    "\"abi\": \"1.0\","
    "\"id\": \"org.widgethost.ticker\","
    "\"name\": \"Ticker\","
    "\"version\": \"0.1.0\","
    "\"sizes\": [\"small\", \"medium\", \"large\"],"
    "\"vendor\": \"WidgetHost\","
    "\"description\": \"The Bitcoin price the Crypto widget knows, asked through its contract.\","
    "\"screens\": [{\"id\": \"ticker\", \"title\": \"Bitcoin ticker\", \"actions\": []}],"
    "\"services\": {\"required\": [\"widget-host.log/1\", \"widget-host.clock/1\"], \"optional\": [\"widget-host.clock/2\"]},"
    "\"settings\": [],"
    "\"contracts\": {\"requires\": [\"org.widgethost.crypto.price/1\"]}"
"}")
