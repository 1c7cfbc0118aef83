#!/bin/sh
# Installs Debian's wrk, the HTTP load generator of bench/bench_http.py, when /usr/bin/wrk is
# missing. It uses apt-get only. Needs root, or sudo, and a Debian-like system.
set -eu

WRK=/usr/bin/wrk

if [ -x "$WRK" ]; then
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: $WRK is missing and apt-get is not available." >&2
    echo "Install your system's wrk package so that $WRK exists." >&2
    exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "error: installing wrk needs root: run this script as root." >&2
    exit 1
fi

echo "Installing Debian's wrk with apt-get (for bench/bench_http.py)..."
$SUDO apt-get update
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install --yes --no-install-recommends wrk

if [ ! -x "$WRK" ]; then
    echo "error: the wrk package installed no $WRK." >&2
    exit 1
fi
echo "Installed $WRK."
