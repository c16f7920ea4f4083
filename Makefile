# make                       build ringcheck for release
# make install PREFIX=DIR    build and install DIR/bin/ringcheck (default /usr/local; DESTDIR stages)
# make uninstall PREFIX=DIR  remove it
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: build install uninstall

build:
	swift build -c release --static-swift-stdlib --product ringcheck

install:
	scripts/install.sh --prefix "$(PREFIX)" --destdir "$(DESTDIR)"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/ringcheck"
