#!/usr/bin/env bash
# Install what `make serve` and `make test` need, and only what is missing or at the wrong version.
# Idempotent: on a ready machine it only compares versions and returns in a few seconds.
#
#   scripts/setup.sh                 as root, or as a normal user (sudo is asked for only when a
#                                    Debian package is missing)
#   sudo scripts/setup.sh            as a normal user: the Debian packages are installed as root,
#                                    then the script drops back to $SUDO_USER for the Rust tools
#                                    (~/.cargo) and node_modules, so they belong to that user
#
# What it installs:
#   Debian   chromium, chromium-driver, firefox-esr (browser tests); xz-utils (make dist packs the
#            wasm it inlines with xz); hugo and python3-venv (two of the fixture sites, tests/sites/);
#            node and npm if absent
#   rustup   the wasm32-unknown-unknown target, rustfmt, clippy, rust-src (std rebuilt for threads)
#   cargo    wasm-bindgen-cli (exactly the version crate/Cargo.toml pins), wasm-pack, geckodriver
#   npm      the packages of package-lock.json (`npm ci`), without Playwright's browser download:
#            @playwright/test, and binaryen, whose wasm-opt the Makefile puts first on PATH (Debian
#            bookworm's binaryen 108 is too old: its wasm-opt breaks wasm-bindgen's externref table);
#            and the fixture sites' generators (tests/sites/package-lock.json: Eleventy, VitePress, Astro)
#   pip      MkDocs with its Material theme, in tests/sites/.venv (tests/sites/mkdocs/requirements.txt)
set -euo pipefail
cd "$(dirname "$0")/.."

export PATH="$HOME/.cargo/bin:$PATH"
say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

WASM_PACK_VERSION=0.15.1
GECKODRIVER_VERSION=0.37.1
NODE_MAJOR_MIN=20 # Playwright's minimum

# ---------------------------------------------------------------------------------------------
# Part 1, as root (directly or through sudo): Debian packages.
if [ "${1:-}" != "--user-part" ]; then
  debs=(chromium chromium-driver firefox-esr xz-utils hugo python3-venv)
  missing=()
  for p in "${debs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  command -v node >/dev/null && command -v npm >/dev/null || missing+=(nodejs npm)
  if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then SUDO=(); else SUDO=(sudo); fi
    say "installing Debian packages: ${missing[*]}"
    "${SUDO[@]}" apt-get update -qq
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi

  # Run through sudo by a normal user: the rest belongs to that user, not to root.
  if [ "$(id -u)" -eq 0 ] && [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
    say "continuing as $SUDO_USER"
    user_home=$(getent passwd "$SUDO_USER" | cut -d: -f6)
    exec runuser -u "$SUDO_USER" -- env HOME="$user_home" USER="$SUDO_USER" "$0" --user-part
  fi
fi

# ---------------------------------------------------------------------------------------------
# Part 2, as the user who will build and test.
command -v cargo >/dev/null ||
  die "cargo not found: install Rust with rustup (https://rustup.rs), then run this again"

# Node: Playwright needs a recent one.
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge "$NODE_MAJOR_MIN" ] ||
  die "node $(node --version) is too old: Playwright needs node >= $NODE_MAJOR_MIN"

# Rust: the wasm target and the formatting/lint components.
if command -v rustup >/dev/null; then
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
  components=$(rustup component list --installed)
  # rust-src: the threads build of the checkpoint facade rebuilds std with atomics (Makefile THREADS_ENV).
  for c in rustfmt clippy rust-src; do
    grep -q "^$c" <<<"$components" || { say "adding $c"; rustup component add "$c"; }
  done
else
  say "no rustup: assuming the toolchain already has wasm32-unknown-unknown, rustfmt, clippy and rust-src"
fi

# `cargo install NAME VERSION` unless `BIN --version` already reports VERSION (second word).
cargo_tool() {
  local crate=$1 bin=$2 want=$3 have
  have=$("$bin" --version 2>/dev/null | head -n1 | awk '{print $2}' || true)
  if [ "$have" != "$want" ]; then
    say "installing $crate $want (have: ${have:-none}); it builds from source, a few minutes"
    cargo install "$crate" --version "$want" --force
  fi
}

# wasm-bindgen-cli must be exactly the wasm-bindgen the crate pins (`wasm-bindgen = "=X.Y.Z"`).
want_bindgen=$(sed -nE 's/^wasm-bindgen[[:space:]]*=[^"]*"=([0-9]+\.[0-9]+\.[0-9]+)".*/\1/p' crate/Cargo.toml)
[ -n "$want_bindgen" ] ||
  die 'crate/Cargo.toml must pin wasm-bindgen exactly (wasm-bindgen = "=X.Y.Z") for the CLI to match'
cargo_tool wasm-bindgen-cli wasm-bindgen "$want_bindgen"
cargo_tool wasm-pack wasm-pack "$WASM_PACK_VERSION"
cargo_tool geckodriver geckodriver "$GECKODRIVER_VERSION"

# npm packages, exactly as package-lock.json records them. node_modules/.lock-sha remembers which
# lock the last `npm ci` installed, so an unchanged lock costs one sha256sum.
lock_sha=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.lock-sha 2>/dev/null || true)" != "$lock_sha" ]; then
  say "npm ci"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
  echo "$lock_sha" >node_modules/.lock-sha
fi

# The fixture sites' generators (tests/e2e/sites.spec.js), the same way: their own lock, and a venv
# for MkDocs whose requirements file records every package's exact version.
lock_sha=$(sha256sum tests/sites/package-lock.json | cut -d' ' -f1)
if [ "$(cat tests/sites/node_modules/.lock-sha 2>/dev/null || true)" != "$lock_sha" ]; then
  say "npm ci in tests/sites/"
  (cd tests/sites && npm ci --no-audit --no-fund)
  echo "$lock_sha" >tests/sites/node_modules/.lock-sha
fi
req_sha=$(sha256sum tests/sites/mkdocs/requirements.txt | cut -d' ' -f1)
if [ "$(cat tests/sites/.venv/.req-sha 2>/dev/null || true)" != "$req_sha" ]; then
  say "MkDocs into tests/sites/.venv"
  python3 -m venv tests/sites/.venv
  tests/sites/.venv/bin/pip install --quiet --disable-pip-version-check -r tests/sites/mkdocs/requirements.txt
  echo "$req_sha" >tests/sites/.venv/.req-sha
fi

say "ready"
