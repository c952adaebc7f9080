#!/bin/sh
# Installs widget-host, the shipped widgets and the SDK that `widget-host new`
# copies into a project, under PREFIX (default ~/.local):
#   PREFIX/bin/widget-host
#   PREFIX/share/widget-host/plugins/lib*Plugin.so
#   PREFIX/share/widget-host/sdk/Sources/{PluginABI,PluginKit}
# Only ~/.local (your $XDG_DATA_HOME) puts the widgets on the search path;
# for another PREFIX it says how to add them.
# BIN is the build's products directory (default: `swift build --show-bin-path`).
set -eu
prefix=${1:-"$HOME/.local"}
source=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$(cd "$source" && swift build --show-bin-path)}
install -d "$prefix/bin" "$prefix/share/widget-host/plugins" "$prefix/share/widget-host/sdk/Sources"
install -m 0755 "$bin/widget-host" "$prefix/bin/"
for plugin in Crypto Checkout Trips Ticker; do
    if [ -f "$bin/lib${plugin}Plugin.so" ]; then install -m 0644 "$bin/lib${plugin}Plugin.so" "$prefix/share/widget-host/plugins/"; fi
done
rm -rf "$prefix/share/widget-host/sdk/Sources/PluginABI" "$prefix/share/widget-host/sdk/Sources/PluginKit"
cp -R "$source/Sources/PluginABI" "$source/Sources/PluginKit" "$prefix/share/widget-host/sdk/Sources/"
echo "installed widget-host in $prefix/bin (put it on PATH) and its SDK in $prefix/share/widget-host/sdk"
# The host finds plugins under $XDG_DATA_HOME, not under any PREFIX: say so
# rather than leave an install that lists no widgets.
plugins=$(cd "$prefix/share/widget-host/plugins" && pwd -P)
own=$(cd "${XDG_DATA_HOME:-$HOME/.local/share}/widget-host/plugins" 2>/dev/null && pwd -P || true)
if [ "$plugins" != "$own" ]; then
    echo "note: $plugins is not on widget-host's search path; add it with" \
        "WIDGET_HOST_PLUGIN_PATH=$plugins (or --plugin-dir), or see 'widget-host help plugins'" >&2
fi
