#!/bin/sh
# Runs a command as on a fresh machine that has Node 20, cc and make and none of the optional Debian
# packages the test suites use (the list of scripts/ci-deps.sh, or $SBX_FRESH_HIDE): in a private mount
# namespace where their files under /usr/bin and Python's dist-packages are hidden (an overlay with the
# files removed), with PATH reduced to the system's dirs and an empty HOME (no ~/.cargo, no pyenv). The
# npm cache stays where it is (npm_config_cache), so npm install does not download everything again.
# Root only (mount namespaces and overlays); the host is not changed. Example, from a fresh clone:
#   sudo scripts/fresh-machine.sh sh -c 'npm install && npm test'
set -eu

if [ "$(id -u)" != 0 ]; then
  echo "fresh-machine: run me as root: I hide packages' files in a private mount namespace" >&2
  exit 2
fi
[ $# -gt 0 ] || { echo "usage: scripts/fresh-machine.sh COMMAND [ARG...]" >&2; exit 2; }

hide=${SBX_FRESH_HIDE:-"g++ g++-12 python3 python3-minimal python3.11 python3.11-minimal python3-pytest cargo rustc chromium wabt git golang-go golang-1.19-go valgrind gdb strace"}
tmp=$(mktemp -d /tmp/sbx-fresh.XXXXXX)
mkdir -p "$tmp/home"
: > "$tmp/files"
for p in $hide; do
  dpkg-query -L "$p" 2>/dev/null | while read -r f; do
    case $f in
      /usr/bin/*|/bin/*) [ -e "$f" ] || [ -L "$f" ] && echo "/usr/bin/${f##*/}" ;;
      /usr/lib/python3/dist-packages/*/*) ;;
      /usr/lib/python3/dist-packages/*) echo "$f" ;;
    esac
  done >> "$tmp/files"
done

export SBX_FRESH_TMP="$tmp" SBX_FRESH_HOME="$tmp/home"
export npm_config_cache="${npm_config_cache:-$(npm config get cache 2>/dev/null || echo "$HOME/.npm")}"
status=0
unshare -m --propagation private sh -c '
  set -eu
  n=0
  for d in $(xargs -r -n1 dirname < "$SBX_FRESH_TMP/files" | sort -u); do
    [ -d "$d" ] || continue
    n=$((n + 1))
    mkdir -p "$SBX_FRESH_TMP/u$n" "$SBX_FRESH_TMP/w$n"
    mount -t overlay overlay -o "lowerdir=$d,upperdir=$SBX_FRESH_TMP/u$n,workdir=$SBX_FRESH_TMP/w$n" "$d"
  done
  sort -u "$SBX_FRESH_TMP/files" | while read -r f; do rm -rf "$f"; done
  export HOME="$SBX_FRESH_HOME" PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
  unset CARGO_HOME RUSTUP_HOME PYENV_ROOT SBX_FRESH_TMP SBX_FRESH_HOME
  "$@"
' fresh-machine "$@" || status=$?
rm -rf "$tmp"
exit $status
