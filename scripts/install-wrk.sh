#!/bin/sh
# Installs Debian's wrk, the HTTP load generator of bench/bench_http.py, when /usr/bin/wrk is
# missing.
exec sh "$(dirname "$0")/apt-install.sh" wrk /usr/bin/wrk "bench/bench_http.py"
