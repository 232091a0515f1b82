#!/usr/bin/env bash
# Install Debian's HAProxy for the replica test (tests/test_replicas.py) and bench/replicas.py:
# three `kb serve --public` replicas on loopback behind a real load balancer.
# Idempotent: does nothing when /usr/sbin/haproxy is already there.
set -euo pipefail

if [ -x /usr/sbin/haproxy ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-haproxy.sh: apt-get not found; install HAProxy so that /usr/sbin/haproxy exists" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends haproxy >/dev/null
# The package's own service is not wanted: the test starts its own haproxy on loopback.
if command -v systemctl >/dev/null 2>&1; then
  $SUDO systemctl disable --now haproxy >/dev/null 2>&1 || true
fi
/usr/sbin/haproxy -v | head -1
