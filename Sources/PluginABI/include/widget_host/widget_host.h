/* widget_host/widget_host.h: the whole plugin ABI in one include. */
#ifndef WIDGET_HOST_H
#define WIDGET_HOST_H

#include <stddef.h>
#include "version.h"
#include "output.h"
#include "host.h"
#include "plugin.h"
#include "manifest.h"
#include "services/log.h"
#include "services/clock.h"
#include "services/config.h"
#include "services/store.h"
#include "services/http.h"
#include "services/bus.h"
#include "services/navigator.h"
#include "services/contract.h"
#include "view_writer.h"

#endif
