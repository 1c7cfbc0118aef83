#!/bin/sh
# Installs Debian's chromium for the browser tests (tests/browser) when /usr/bin/chromium is
# missing. The tests never run a browser that Playwright downloaded, so never run
# `playwright install`.
exec sh "$(dirname "$0")/apt-install.sh" chromium /usr/bin/chromium "the browser tests"
