# make                       build ringcheck for release
# make install PREFIX=DIR    build and install DIR/bin/ringcheck (default /usr/local; DESTDIR stages)
# make uninstall PREFIX=DIR  remove it
# make deb                   build dist/ringcheck_VERSION_ARCH.deb (binary, man page, completions)
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: build install uninstall deb

build:
	swift build -c release --static-swift-stdlib --product ringcheck

install:
	scripts/install.sh --prefix "$(PREFIX)" --destdir "$(DESTDIR)"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/ringcheck"

deb:
	scripts/make-deb.sh --out dist
