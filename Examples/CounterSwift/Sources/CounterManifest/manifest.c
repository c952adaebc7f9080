#include "widget_host/manifest.h"
WH_MANIFEST_BYTES {
#embed "../../widget.json"
    , 0 };
