#include "widget_host/widget_host.h"

/* "trip" is the widget itself; "booking" and "search" stand for the app's
 * screens its links open; "timeline" lists the entries for
 * `widget-host timeline`. The store is optional so that a host without a
 * shared container gets the "storage not found" view, not a refusal. It
 * reads the app's bookings (trips.bookings) from the store group "trips".
 * http.hosts: no fetch of its own (it asks for no http service); the host
 * fetches a hotel's photo for `serve` only from the app's image host, or
 * this machine's loopback (a local mirror, and the tests). */
WH_MANIFEST("{"
    "\"abi\": \"1.0\","
    "\"id\": \"org.widgethost.trips\","
    "\"name\": \"My Trips\","
    "\"version\": \"0.2.0\","
    "\"sizes\": [\"small\", \"medium\", \"large\"],"
    "\"vendor\": \"WidgetHost\","
    "\"description\": \"Your next trip as a timeline of flight and hotel steps.\","
    "\"screens\": ["
        "{\"id\": \"trip\", \"title\": \"My Trips\", \"actions\": []},"
        "{\"id\": \"booking\", \"title\": \"Booking\", \"actions\": []},"
        "{\"id\": \"search\", \"title\": \"Search\", \"actions\": []},"
        "{\"id\": \"timeline\", \"title\": \"My Trips timeline\", \"actions\": []}"
    "],"
    "\"services\": {\"required\": [\"widget-host.log/1\", \"widget-host.clock/1\"],"
                  " \"optional\": [\"widget-host.clock/2\", \"widget-host.store/1\", \"widget-host.bus/1\"]},"
    "\"topics\": {\"publish\": [], \"subscribe\": [\"store.changed\"]},"
    "\"settings\": [],"
    "\"store\": {\"groups\": {\"trips\": \"read\"}},"
    "\"http\": {\"hosts\": [\"images.example.com\", \"127.0.0.1\", \"localhost\"]}"
"}")
