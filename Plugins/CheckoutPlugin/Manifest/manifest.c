#include "widget_host/widget_host.h"

/* http.hosts: no fetch of its own (it asks for no http service); the host
 * fetches the logo picture for `serve` only from these: Afterpay's static
 * host, and this machine's loopback so that a person (and the tests) can
 * serve their own with `--set checkout.logoURL=http://127.0.0.1:PORT/...`. */

WH_MANIFEST("{"
    "\"abi\": \"1.0\","
    "\"id\": \"org.widgethost.checkout\","
    "\"name\": \"Checkout\","
    "\"version\": \"0.2.0\","
    "\"sizes\": [\"small\", \"medium\", \"large\"],"
    "\"vendor\": \"WidgetHost\","
    "\"description\": \"Buy now, pay later: a 4-instalment schedule that follows the order total.\","
    "\"screens\": ["
        "{\"id\": \"checkout\", \"title\": \"Checkout\", \"actions\": [\"update\"]}"
    "],"
    "\"services\": {\"required\": [\"widget-host.log/1\", \"widget-host.config/1\", \"widget-host.clock/1\","
                                  "\"widget-host.store/1\", \"widget-host.bus/1\"], \"optional\": [\"widget-host.clock/2\"]},"
    "\"topics\": {\"publish\": [\"checkout.ready\", \"checkout.changed\", \"checkout.error\", \"checkout.failure\"],"
                 "\"subscribe\": []},"
    "\"settings\": ["
        "{\"key\": \"minimumAmount\", \"type\": \"decimal\", \"minimum\": 0.01, \"help\": \"required: the smallest order total offered Pay in 4, inclusive, such as 50.00\"},"
        "{\"key\": \"maximumAmount\", \"type\": \"decimal\", \"minimum\": 0.01, \"help\": \"required: the largest order total offered Pay in 4, inclusive, more than the minimum\"},"
        "{\"key\": \"currencyCode\", \"type\": \"string\", \"values\": [\"AUD\", \"CAD\", \"GBP\", \"NZD\", \"USD\"], \"help\": \"required: the currency of the order\"},"
        "{\"key\": \"locale\", \"type\": \"string\", \"values\": [\"en_AU\", \"en_CA\", \"fr_CA\", \"en_GB\", \"en_NZ\", \"en_US\"], \"help\": \"required: how money, dates and the shopper's text are written\"},"
        "{\"key\": \"amount\", \"type\": \"decimal\", \"help\": \"before a checkout: the order total to start with\"},"
        "{\"key\": \"token\", \"type\": \"string\", \"help\": \"after a checkout: the token of the completed checkout to show\"},"
        "{\"key\": \"logo\", \"type\": \"boolean\", \"default\": true, \"help\": \"show the Pay in 4 logo\"},"
        "{\"key\": \"heading\", \"type\": \"boolean\", \"default\": true, \"help\": \"show the headline: or 4 interest-free payments of …\"},"
        "{\"key\": \"logoURL\", \"type\": \"string\", \"default\": \"https://static.afterpay.com/integration/product-page/logo-afterpay-colour.png\", \"help\": \"the logo's picture (PNG, JPEG, GIF or WebP) shown in a browser; from static.afterpay.com or this machine's loopback\"}"
    "],"
    "\"store\": {\"groups\": {\"checkout\": \"read\"}},"
    "\"http\": {\"hosts\": [\"static.afterpay.com\", \"127.0.0.1\", \"localhost\"]}"
"}")
