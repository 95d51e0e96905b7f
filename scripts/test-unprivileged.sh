#!/bin/sh
# Runs the sandbox tests as an ordinary user: sbx exists to work without root, and CI runs as root.
# test/launcher (the launcher's probes, determinism, seccomp) and test/e2e (`sbx run` through the CLI on
# make test, ASan, pytest, cargo test, ...). Creates the user when missing (default sbxtest, or
# $SBX_TEST_USER), builds what is missing, and runs uvu as that user, in place when it can read the tree,
# else (or with SBX_TEST_COPY=1) from a copy. Prints uvu's output; exits non-zero when any suite fails.
set -eu

user=${SBX_TEST_USER:-sbxtest}
root=$(cd "$(dirname "$0")/.." && pwd)

if [ "$(id -u)" != 0 ]; then
  echo "test-unprivileged: run me as root: I create the user $user and switch to it" >&2
  exit 2
fi
id "$user" >/dev/null 2>&1 || useradd -m "$user"

cd "$root"
[ -x build/sbx-launch ] || npm run --silent build:native
[ -f dist/launcher.js ] || npx esbuild src/launcher/index.ts --bundle --platform=node --format=esm --outfile=dist/launcher.js --log-level=warning
[ -f dist/cli.js ] || npm run --silent build:host

suites="test/launcher test/e2e"
node=$(command -v node)
dir=$root
copy=
need="test -r '$root/dist/launcher.js' && test -r '$root/dist/cli.js' && test -x '$root/build/sbx-launch' && test -r '$root/node_modules/uvu/bin.js' && test -r '$root/test/launcher/probe.c' && test -r '$root/test/e2e/_helpers.js' && test -r '$root/test/_tools.js' && test -r '$root/fixtures/runners/make-test-fail/Makefile'"
if [ -n "${SBX_TEST_COPY:-}" ] || ! su "$user" -s /bin/sh -c "$need" 2>/dev/null; then
  # The user cannot read the tree (e.g. it lives under /root): copy what the tests need.
  copy=$(mktemp -d /tmp/sbx-unprivileged.XXXXXX)
  mkdir -p "$copy/node_modules" "$copy/test"
  cp -R package.json dist build native fixtures "$copy/"
  for s in $suites; do cp -R "$s" "$copy/test/"; done
  cp test/_tools.js "$copy/test/"
  for m in uvu dequal diff kleur sade mri; do
    [ -d "node_modules/$m" ] && cp -R "node_modules/$m" "$copy/node_modules/"
  done
  chown -R "$user" "$copy"
  chmod 755 "$copy"
  dir=$copy
fi

status=0
for s in $suites; do
  echo "test-unprivileged: running $s as $user (uid $(id -u "$user")) in $dir"
  su "$user" -s /bin/sh -c "cd '$dir' && exec '$node' node_modules/uvu/bin.js $s" || status=1
done
# The host-side probes of issue 28 outside those suites (the MCP server's confinement, the Python binding's
# cache) need the whole checkout (node_modules, python/): run in place, where the user can read it.
if [ -z "$copy" ]; then
  for t in "test/integrations mcp-confine" "test/python cache-trust"; do
    echo "test-unprivileged: running $t as $user in $dir"
    su "$user" -s /bin/sh -c "cd '$dir' && exec '$node' node_modules/uvu/bin.js $t" || status=1
  done
fi
[ -n "$copy" ] && rm -rf "$copy"
exit $status
