#!/bin/sh
# Builds ringcheck for release and installs the binary: scripts/install.sh [--prefix DIR] [--destdir DIR]
#   --prefix DIR    install to DIR/bin/ringcheck (default: /usr/local)
#   --destdir DIR   stage under DIR (DIR/PREFIX/bin/ringcheck), for packaging
#   --scratch-path DIR  build in DIR instead of .build
#   --no-build      install what `swift build -c release` built last
# The binary carries the suites and links Swift's runtime statically, so it runs from any folder and
# on a Linux machine without the toolchain (it needs only the Debian libraries: libssl3, libnghttp2-14,
# libcurl4, libsqlite3-0, libyaml-0-2).
set -eu
cd "$(dirname "$0")/.."

prefix=/usr/local
destdir=
build=yes
scratch=
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || { echo "install.sh: --prefix needs a folder" >&2; exit 2; }; prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#--prefix=}; shift ;;
        --destdir) [ $# -ge 2 ] || { echo "install.sh: --destdir needs a folder" >&2; exit 2; }; destdir=$2; shift 2 ;;
        --destdir=*) destdir=${1#--destdir=}; shift ;;
        --scratch-path) [ $# -ge 2 ] || { echo "install.sh: --scratch-path needs a folder" >&2; exit 2; }; scratch=$2; shift 2 ;;
        --no-build) build=no; shift ;;
        -h|--help) sed -n '2,10s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[ -n "$prefix" ] || { echo "install.sh: --prefix is empty" >&2; exit 2; }

swift=${SWIFT:-swift}
flags="-c release --static-swift-stdlib --product ringcheck"
[ -z "$scratch" ] || flags="$flags --scratch-path $scratch"
if [ "$build" = yes ]; then
    # shellcheck disable=SC2086
    "$swift" build $flags
fi
# shellcheck disable=SC2086
bin=$("$swift" build $flags --show-bin-path)/ringcheck
[ -x "$bin" ] || { echo "install.sh: $bin was not built (run without --no-build)" >&2; exit 1; }

target="$destdir$prefix/bin"
mkdir -p "$target"
cp "$bin" "$target/ringcheck.new"
chmod 0755 "$target/ringcheck.new"
mv -f "$target/ringcheck.new" "$target/ringcheck"
echo "installed $target/ringcheck"
