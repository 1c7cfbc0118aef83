#!/bin/sh
# Installs Debian's chromium for the browser tests (tests/browser) when /usr/bin/chromium is
# missing. It uses apt-get only: the tests never run a browser that Playwright downloaded, so
# never run `playwright install`. Needs root, or sudo, and a Debian-like system.
set -eu

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
    echo "Browser tests use $CHROMIUM (already installed)."
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: $CHROMIUM is missing and apt-get is not available." >&2
    echo "Install your system's chromium package so that $CHROMIUM exists." >&2
    exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "error: installing chromium needs root: run this script as root." >&2
    exit 1
fi

echo "Installing Debian's chromium with apt-get (for the browser tests)..."
$SUDO apt-get update
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install --yes --no-install-recommends chromium

if [ ! -x "$CHROMIUM" ]; then
    echo "error: the chromium package installed no $CHROMIUM." >&2
    exit 1
fi
echo "Installed $CHROMIUM."
