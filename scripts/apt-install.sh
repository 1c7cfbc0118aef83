#!/bin/sh
# Usage: apt-install.sh PACKAGE PROGRAM PURPOSE
# Installs Debian's PACKAGE with apt-get when PROGRAM (an absolute path) is missing; PURPOSE
# says what it is for. The test and benchmark tools come from Debian only (never a browser
# Playwright downloaded). Needs root, or sudo, and a Debian-like system.
set -eu

PACKAGE=$1
PROGRAM=$2
PURPOSE=$3

if [ -x "$PROGRAM" ]; then
    echo "$PURPOSE: $PROGRAM (already installed)."
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: $PROGRAM is missing and apt-get is not available." >&2
    echo "Install your system's $PACKAGE package so that $PROGRAM exists." >&2
    exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "error: installing $PACKAGE needs root: run this script as root." >&2
    exit 1
fi

echo "Installing Debian's $PACKAGE with apt-get ($PURPOSE)..."
$SUDO apt-get update
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install --yes --no-install-recommends "$PACKAGE"

if [ ! -x "$PROGRAM" ]; then
    echo "error: the $PACKAGE package installed no $PROGRAM." >&2
    exit 1
fi
echo "Installed $PROGRAM."
