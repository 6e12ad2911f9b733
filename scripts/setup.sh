#!/usr/bin/env bash
# Install what `make serve` and `make test` need, and only what is missing or at the wrong version.
# Idempotent: on a ready machine it checks versions and returns in seconds.
# Runs as root, or as a normal user with sudo for the Debian packages.
set -euo pipefail
cd "$(dirname "$0")/.."

export PATH="$HOME/.cargo/bin:$PATH"
say() { printf 'setup: %s\n' "$*"; }

if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi

# --- Debian packages: browsers and their drivers for the browser tests, binaryen for wasm-opt.
debs=(chromium chromium-driver firefox-esr binaryen)
missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# --- Rust: the wasm target and the formatting/lint components.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
for c in rustfmt clippy; do
  rustup component list --installed | grep -q "^$c" || rustup component add "$c"
done

# --- wasm-bindgen-cli at exactly the version the crate pins (the two must match).
want_bindgen=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' crate/Cargo.toml)
[ -n "$want_bindgen" ] || { echo "setup: cannot read the pinned wasm-bindgen version from crate/Cargo.toml" >&2; exit 1; }
have_bindgen=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have_bindgen" != "$want_bindgen" ]; then
  say "installing wasm-bindgen-cli $want_bindgen (have: ${have_bindgen:-none}); this builds from source, a few minutes"
  cargo install wasm-bindgen-cli --version "$want_bindgen" --force
fi

# --- wasm-pack and geckodriver, pinned so every machine runs the same tools.
want_pack=0.15.1
have_pack=$(wasm-pack --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have_pack" != "$want_pack" ]; then
  say "installing wasm-pack $want_pack (have: ${have_pack:-none}); a few minutes"
  cargo install wasm-pack --version "$want_pack" --force
fi
want_gecko=0.37.1
have_gecko=$(geckodriver --version 2>/dev/null | head -n1 | awk '{print $2}' || true)
if [ "$have_gecko" != "$want_gecko" ]; then
  say "installing geckodriver $want_gecko (have: ${have_gecko:-none}); a few minutes"
  cargo install geckodriver --version "$want_gecko" --force
fi

# --- npm packages, exactly as package-lock.json records them.
if [ -f package-lock.json ]; then
  if [ ! -f node_modules/.package-lock.json ] || ! cmp -s <(node -e 'const l=require("./package-lock.json");delete l.name;delete l.version;console.log(JSON.stringify(l.packages))') <(node -e 'const l=require("./node_modules/.package-lock.json");const p={...l.packages};console.log(JSON.stringify(Object.fromEntries(Object.entries(require("./package-lock.json").packages).map(([k])=>[k,p[k]??null]))))'); then
    say "npm ci"
    npm ci --no-audit --no-fund
  fi
fi
say "ready"
