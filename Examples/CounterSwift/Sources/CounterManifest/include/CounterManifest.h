#include "widget_host/manifest.h"
