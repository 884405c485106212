#!/bin/sh
# Renders the contact sheets to docs/screenshots/pieces-<set>.png with Debian's chromium
# (apt-get install chromium). Run from anywhere; it draws nothing new, so run
# make-pieces.mjs first when a drawing changed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
sheets=$(mktemp -d)
trap 'rm -rf "$sheets"' EXIT
node "$here/contact-sheets.mjs" "$sheets/web/pieces/tools/sheets" >/dev/null
# The sheets name the pieces by relative paths: give them the pieces beside them.
cp -r "$root/web/pieces/shogi" "$root/web/pieces/chess" "$root/web/pieces/cannon" "$sheets/web/pieces/"
shot() { # set width height
  chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --hide-scrollbars \
    --screenshot="$root/docs/screenshots/pieces-$1.png" --window-size="$2,$3" \
    "file://$sheets/web/pieces/tools/sheets/pieces-$1.html" 2>/dev/null
}
shot shogi 1270 1250
shot chess 1270 1320
shot cannon 520 720
# Smaller files for the repository, where pngquant is installed (apt-get install pngquant).
if command -v pngquant >/dev/null; then
  for f in "$root"/docs/screenshots/pieces-*.png; do pngquant --force --skip-if-larger --output "$f" 64 "$f" || true; done
fi
ls -l "$root"/docs/screenshots/pieces-*.png
