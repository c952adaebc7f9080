#!/bin/sh
# Installs widget-host, the shipped widgets and the SDK that `widget-host new`
# copies into a project, under PREFIX (default ~/.local):
#   PREFIX/bin/widget-host
#   PREFIX/share/widget-host/plugins/lib*Plugin.so
#   PREFIX/share/widget-host/sdk/Sources/{PluginABI,PluginKit}
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
