#!/bin/sh
# The Debian packages the test suites need beyond Node: C and C++ toolchains with AddressSanitizer
# (gcc's libasan; g++ for the experiment's C++ task), make, Python's pytest, and Debian's cargo/rustc
# (so an ordinary user, who cannot read root's rustup toolchain, has one too), Chromium for the browser
# suites (test/browser, driven by playwright-core from npm) and wabt's wasm2c for the Python binding
# (python/sbx_engine), git (the host-escape and work-root suites), and slurm-wlm with munge (a one-node
# Slurm cluster for the experiment's job-array test, test/harness/slurm), and clang-format (the launcher's
# C is checked against .clang-format, test/contract/format). test/_tools.js names the package
# each suite needs; without it the suite is skipped with its apt-get line. Idempotent and quiet:
# installs only what is missing, runs apt-get update at most once. Run as root (CI does); anyone else
# only gets told what is missing.
set -eu

pkgs="gcc g++ libc6-dev make python3 python3-pytest cargo rustc chromium wabt git slurm-wlm munge clang-format"

missing=
for p in $pkgs; do
  st=$(dpkg-query -W -f '${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$st" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
  echo "ci-deps: missing Debian packages:$missing (run me as root to install them)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
echo "ci-deps: installing$missing"
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
