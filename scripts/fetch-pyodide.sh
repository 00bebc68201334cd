#!/usr/bin/env bash
# The Pyodide distribution the narrator's offline page runs (issue 35), from the npm
# registry into the ignored build folder: build/pyodide/pyodide-<version>/. The
# version and the tarball's integrity are pinned here and in pbm/web/narrator_offline.py
# (PYODIDE_VERSION); a tarball whose integrity differs is refused.
set -euo pipefail
VERSION=0.29.3
INTEGRITY="sha512-22UBuhOJawj7vKUnS7/F3xK+515LJdjiMAHoCfuS6/PbHiOrSQVnYwDe+2sbVwiOZ3sMMexdXICew6NqOMQGgA=="
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DEST="$ROOT/build/pyodide"
TARGET="$DEST/pyodide-$VERSION"
[ -f "$TARGET/pyodide.asm.wasm" ] && [ -f "$TARGET/python_stdlib.zip" ] && exit 0
command -v npm >/dev/null || { echo "npm is needed to fetch Pyodide (make system-deps)" >&2; exit 1; }
mkdir -p "$DEST"
cd "$DEST"
TARBALL="pyodide-$VERSION.tgz"
[ -f "$TARBALL" ] || npm pack --silent "pyodide@$VERSION" >/dev/null
GOT="$(python3 -c 'import base64, hashlib, sys; print("sha512-" + base64.b64encode(hashlib.sha512(open(sys.argv[1], "rb").read()).digest()).decode())' "$TARBALL")"
if [ "$GOT" != "$INTEGRITY" ]; then
  echo "pyodide $VERSION: integrity $GOT, expected $INTEGRITY" >&2
  rm -f "$TARBALL"
  exit 1
fi
rm -rf package "$TARGET"
tar xzf "$TARBALL"
mv package "$TARGET"
echo "pyodide $VERSION in $TARGET"
