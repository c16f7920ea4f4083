#!/bin/sh
# Proves the Debian package on a clean Debian 12 root without Swift:
#   scripts/deb-clean-root-check.sh [--deb FILE] [--root DIR] [--keep]
#   --deb FILE   the package to install (default: build one with scripts/make-deb.sh)
#   --root DIR   the Debian root to use; made with `debootstrap --variant=minbase bookworm` when missing
#                (default: a new one under $TMPDIR, removed afterwards unless --keep)
# In a chroot of that root it installs the package with `apt-get install ./ringcheck_*.deb` (apt
# fetches its Depends from Debian), checks that no Swift toolchain is there, and runs `ringcheck run`
# and `ringcheck run --profile all`, each of which must exit 0. Needs root, debootstrap and Debian's
# package registry. Costs 1.5 minutes with an existing root, 7.5 with a new one (measured on a loaded
# 2-core machine; debootstrap's downloads dominate), plus the package build.
set -eu
cd "$(dirname "$0")/.."

deb=
root=
keep=no
while [ $# -gt 0 ]; do
    case "$1" in
        --deb) [ $# -ge 2 ] || { echo "deb-clean-root-check.sh: --deb needs a file" >&2; exit 2; }; deb=$2; shift 2 ;;
        --root) [ $# -ge 2 ] || { echo "deb-clean-root-check.sh: --root needs a folder" >&2; exit 2; }; root=$2; shift 2 ;;
        --keep) keep=yes; shift ;;
        -h|--help) sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "deb-clean-root-check.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[ "$(id -u)" = 0 ] || { echo "deb-clean-root-check.sh: needs root (debootstrap, chroot, mount)" >&2; exit 1; }

if [ -z "$deb" ]; then
    scripts/make-deb.sh --out dist
    deb=$(ls -t dist/ringcheck_*.deb | head -n 1)
fi
[ -f "$deb" ] || { echo "deb-clean-root-check.sh: no package at $deb" >&2; exit 1; }

made_root=no
if [ -z "$root" ]; then
    root=$(mktemp -d "${TMPDIR:-/tmp}/ringcheck-bookworm.XXXXXX")
    made_root=yes
fi
if [ ! -x "$root/usr/bin/apt-get" ]; then
    command -v debootstrap >/dev/null || { echo "deb-clean-root-check.sh: apt-get install debootstrap" >&2; exit 1; }
    echo "debootstrap bookworm into $root"
    debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
fi

cleanup() {
    for m in dev/pts dev proc; do umount "$root/$m" 2>/dev/null || true; done
    if [ "$made_root" = yes ] && [ "$keep" = no ]; then rm -rf "$root"; fi
}
trap cleanup EXIT INT TERM
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
cp "$deb" "$root/tmp/"
name=$(basename "$deb")

in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TMPDIR=/tmp "$@"; }

if in_root sh -c 'command -v swift || ls -d /opt/swift /usr/share/swift 2>/dev/null'; then
    echo "FAIL: the root has a Swift toolchain; the check must run without one" >&2
    exit 1
fi
in_root apt-get update -qq
in_root sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ./tmp/$name" >/dev/null
in_root ringcheck --version
in_root sh -c 'man -w ringcheck >/dev/null 2>&1 || test -f /usr/share/man/man1/ringcheck.1.gz'
status=0
in_root sh -c 'cd /tmp && ringcheck run -q --report-dir /tmp/reports-callx' || status=$?
echo "ringcheck run: exit $status"
all=0
in_root sh -c 'cd /tmp && ringcheck run -q --profile all --report-dir /tmp/reports-all' || all=$?
echo "ringcheck run --profile all: exit $all"
if [ "$status" -ne 0 ] || [ "$all" -ne 0 ]; then
    echo "FAIL: on a clean Debian 12 root, run exited $status and run --profile all $all" >&2
    exit 1
fi
echo "PASS: $name installs with apt-get on a clean Debian 12 root and both runs exit 0"
