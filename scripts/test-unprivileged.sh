#!/bin/sh
# Runs the launcher tests (test/launcher) as an ordinary user: sbx exists to work without root,
# and CI runs as root. Creates the user when missing (default sbxtest, or $SBX_TEST_USER), builds
# what is missing, and runs uvu as that user, in place when it can read the tree, else from a copy.
# Prints uvu's output; exits with its status.
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

node=$(command -v node)
dir=$root
copy=
if ! su "$user" -s /bin/sh -c "test -r '$root/dist/launcher.js' && test -x '$root/build/sbx-launch' && test -r '$root/node_modules/uvu/bin.js' && test -r '$root/test/launcher/probe.c'" 2>/dev/null; then
  # The user cannot read the tree (e.g. it lives under /root): copy what the tests need.
  copy=$(mktemp -d /tmp/sbx-unprivileged.XXXXXX)
  mkdir -p "$copy/node_modules" "$copy/test"
  cp -R package.json dist build "$copy/"
  cp -R test/launcher "$copy/test/"
  for m in uvu dequal diff kleur sade mri; do
    [ -d "node_modules/$m" ] && cp -R "node_modules/$m" "$copy/node_modules/"
  done
  chown -R "$user" "$copy"
  dir=$copy
fi

echo "test-unprivileged: running test/launcher as $user (uid $(id -u "$user")) in $dir"
status=0
su "$user" -s /bin/sh -c "cd '$dir' && exec '$node' node_modules/uvu/bin.js test/launcher" || status=$?
[ -n "$copy" ] && rm -rf "$copy"
exit $status
