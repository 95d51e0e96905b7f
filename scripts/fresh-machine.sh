#!/bin/sh
# Runs a command as on a fresh machine that has Node 20, cc and make and none of the optional Debian
# packages the test suites use (the list of scripts/ci-deps.sh and a few more, or $SBX_FRESH_HIDE): in a private mount
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

# Every package ci-deps installs but Node 20, cc and make (its own list, read from it), their versioned
# names, and the tools some tests look for on the host when they are there.
ci=$(sed -n 's/^pkgs="\(.*\)"$/\1/p' "$(dirname "$0")/ci-deps.sh" | tr ' ' '\n' | grep -v -x -e gcc -e libc6-dev -e make | tr '\n' ' ')
hide=${SBX_FRESH_HIDE:-"$ci g++-12 python3-minimal python3.11 python3.11-minimal clang-format-14 golang-go golang-1.19-go clang clang-14 cmake slurm-client valgrind gdb strace bubblewrap"}
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
