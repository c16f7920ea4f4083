#!/usr/bin/env python3
"""Lists Swift functions longer than a limit, so long functions cannot creep back.

Usage: scripts/long-functions.py [--max-lines N] PATH...   (N defaults to 80)

A function's length is counted from the line of its `func`/`init`/`deinit`/`subscript` keyword to the
line of its closing brace, both included. String literals (also multi-line and raw ones, with their
interpolations) and comments are skipped when braces are matched, so a `{` in text counts for nothing.
Prints one line per long function (`path:line: name is N lines (max M)`) and exits 1 if there is any,
0 if none, 2 on a usage error.
"""

import bisect
import os
import re
import sys

DECLARATION = re.compile(r"\b(func\s+([^\s(<]+)|init[?!]?(?=\s*[(<])|deinit\b|subscript(?=\s*[(<]))")


CODE_STOP = re.compile(r'//|/\*|#*"|[()]')
STRING_STOP = re.compile(r'\\|"|\n')


def blank_literals(text):
    """The source with every string literal's text and every comment replaced by spaces (newlines kept)."""
    out = list(text)
    i, n = 0, len(text)
    # Each frame is ["code", paren_depth, start_of_blanking] or ["string", hashes, multiline].
    stack = [["code", 0]]

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        frame = stack[-1]
        inside_string = len(stack) > 1
        if frame[0] == "code":
            m = CODE_STOP.search(text, i)
            if not m:
                if inside_string:
                    blank(i, n)
                break
            if inside_string:  # code in an interpolation belongs to its string: its braces count for nothing
                blank(i, m.start())
            i, token = m.start(), m.group()
            if token == "//":
                end = text.find("\n", i)
                end = n if end < 0 else end
                blank(i, end)
                i = end
            elif token == "/*":
                depth, j = 1, i + 2
                while j < n and depth:
                    if text.startswith("/*", j):
                        depth, j = depth + 1, j + 2
                    elif text.startswith("*/", j):
                        depth, j = depth - 1, j + 2
                    else:
                        j += 1
                blank(i, j)
                i = j
            elif token.endswith('"'):
                hashes = len(token) - 1
                multiline = text.startswith('"""', i + hashes)
                stack.append(["string", hashes, multiline])
                blank(i, i + hashes + (3 if multiline else 1))
                i += hashes + (3 if multiline else 1)
            elif token == "(":
                frame[1] += 1
                if inside_string:
                    blank(i, i + 1)
                i += 1
            else:  # ")"
                if inside_string:
                    blank(i, i + 1)
                    if frame[1] == 0:  # the end of an interpolation: back into its string
                        stack.pop()
                        i += 1
                        continue
                frame[1] = max(0, frame[1] - 1)
                i += 1
            continue
        _, hashes, multiline = frame
        closing = ('"""' if multiline else '"') + "#" * hashes
        escape = "\\" + "#" * hashes
        m = STRING_STOP.search(text, i)
        if not m:
            blank(i, n)
            break
        blank(i, m.start())
        i = m.start()
        if text.startswith(escape, i):
            j = i + len(escape)
            if j < n and text[j] == "(":
                blank(i, j + 1)
                stack.append(["code", 0])
                i = j + 1
            else:
                blank(i, min(j + 1, n))
                i = j + 1
        elif text.startswith(closing, i):
            blank(i, i + len(closing))
            stack.pop()
            i += len(closing)
        elif text[i] == "\n" and not multiline:  # an unterminated string: give up on it at the line's end
            stack.pop()
            i += 1
        else:
            blank(i, i + 1)
            i += 1
    return "".join(out)


SIGNATURE_STOP = re.compile(r"->|[()\[\]<>{}]|\b(?:func|var|let|init|case|struct|class|enum)\b")
BRACE = re.compile(r"[{}]")


def long_functions(text, limit):
    """(line, name, length) of every function in `text` longer than `limit` lines."""
    code = blank_literals(text)
    newlines = [k for k, ch in enumerate(code) if ch == "\n"]

    def line_at(offset):
        return bisect.bisect_left(newlines, offset) + 1

    found = []
    for m in DECLARATION.finditer(code):
        name = m.group(2) or m.group(1)
        depth, body = 0, None
        for stop in SIGNATURE_STOP.finditer(code, m.end()):
            token = stop.group()
            if token in "([<":
                depth += 1
            elif token in ")]>":
                depth = max(0, depth - 1)
            elif token == "->":
                continue
            elif depth > 0:
                continue
            elif token == "{":
                body = stop.start()
                break
            else:  # a requirement without a body: the enclosing type or the next declaration comes first
                break
        if body is None:
            continue
        braces, close = 0, len(code) - 1
        for brace in BRACE.finditer(code, body):
            braces += 1 if brace.group() == "{" else -1
            if braces == 0:
                close = brace.start()
                break
        length = line_at(close) - line_at(m.start()) + 1
        if length > limit:
            found.append((line_at(m.start()), name, length))
    return found


def swift_files(paths):
    for root in paths:
        if os.path.isfile(root):
            yield root
            continue
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(".swift"):
                    yield os.path.join(folder, name)


def main(argv):
    limit, paths = 80, []
    args = iter(argv)
    for arg in args:
        if arg == "--max-lines":
            value = next(args, None)
            if value is None or not value.isdigit():
                print("long-functions: --max-lines needs a whole number", file=sys.stderr)
                return 2
            limit = int(value)
        elif arg.startswith("-"):
            print(f"long-functions: unknown option {arg}", file=sys.stderr)
            return 2
        else:
            paths.append(arg)
    if not paths:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        print(f"long-functions: no such file or folder: {missing[0]}", file=sys.stderr)
        return 2
    count = 0
    for path in swift_files(paths):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for line, name, length in long_functions(text, limit):
            print(f"{path}:{line}: {name} is {length} lines (max {limit})")
            count += 1
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
