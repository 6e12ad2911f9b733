# transformer-block
#
#   make serve     install what is missing, build the deployable site, serve it on http://localhost:$(PORT)
#   make site      dist/site/: the lesson, its editions and the gallery, to copy to any static host
#                  (SITE_URL=https://…/: where it will be served from; its canonical links say it)
#   make dev       as make serve, but www/'s sources (what you edit shows on reload)
#   make test      install what is missing, then every check, in order; stops at the first failure
#   make setup     only the install step (scripts/setup.sh; seconds when nothing is missing)
#   make wasm      only the release build of the wasm into www/pkg/
#   make dist      dist/: the one-script embedding, the offline lesson file, the npm package
#   make corpus    crate/data/lesson-prose.txt: the lesson page's prose, which TinyGPT learns from
#   make weights   crate/data/tiny-gpt*/: the trained TinyGPTs the page ships (tblock train, fixed settings)
#   make bench     sizes, load, sliders, TinyGPT native / wasm / PyTorch: a table and bench/results.json
#                  (QUICK=1: a rough smoke run of the same, which make test runs)
#   make bench-training  how fast TinyGPT trains: native, wasm (Node, Chromium), PyTorch if present
#   make bench-checkpoint  tblock eval on a random Qwen2-0.5B-sized bf16 checkpoint: memory, speed, PyTorch
#   make bench-checkpoint-page  a random GPT-2-small-sized checkpoint in the page: first maps, forward time, onnxruntime-web beside
#   make fuzz      fuzz the config.json, weights and training inputs, FUZZ_SECONDS (60) each (nightly)
#   make clean     remove build output (target/, www/pkg/, dist/, test reports)

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.NOTPARALLEL:
.DEFAULT_GOAL := help

PORT ?= 8000
CRATE := crate

# The tools setup installs: wasm-opt (npm binaryen) in node_modules/.bin, the cargo ones in
# ~/.cargo/bin, chromedriver from Debian in /usr/bin. wasm-pack uses the wasm-bindgen, wasm-opt,
# chromedriver and geckodriver it finds on PATH, so it never downloads a tool of its own.
export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

# CI builds once from clean: cargo's incremental caches (1.6 GB of a fresh clone's target/) buy it
# nothing and cost disk that the CI machine shares.
ifdef CI
export CARGO_INCREMENTAL := 0
endif

# wasm-bindgen-test-runner picks its browser from whichever *DRIVER variable is set, Firefox's
# first: each browser stage unsets the others', or --chrome would quietly run in Firefox.
chrome_only := env -u GECKODRIVER -u SAFARIDRIVER
firefox_only := env -u CHROMEDRIVER -u SAFARIDRIVER

# Prints a banner naming a stage; make then echoes each command as it runs it.
stage = @printf '\n==> %s\n' $(1)

.PHONY: help setup wasm dist site serve dev test clean corpus weights bench bench-training bench-checkpoint bench-checkpoint-page fuzz \
	test-fmt test-clippy test-cargo test-wasm-chrome test-wasm-firefox test-unit test-e2e test-e2e-firefox test-bench

help:
	@sed -n '3,19s/^# \{0,1\}//p' Makefile

setup:
	$(call stage,'setup: scripts/setup.sh')
	scripts/setup.sh

# rust-src (setup adds it for the threads build below) puts its own path on this machine into every
# wasm's panic locations, where /rustc/<commit>/ stands without it: mapped back, so every build has the
# same bytes wherever it is built. (Cargo adds these flags to .cargo/config.toml's for wasm32; the
# builds that set RUSTFLAGS, which replaces both, carry them too.)
RUST_SRC_REMAP := --remap-path-prefix=$(shell rustc --print sysroot 2>/dev/null)/lib/rustlib/src/rust=/rustc/$(shell rustc -vV 2>/dev/null | sed -n 's/commit-hash: //p')
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS := $(RUST_SRC_REMAP)

# Four builds of the facade (crate/Cargo.toml's features; www/src/wasm.js picks): whole
# (transformer_block*: the bundles inline it, a served page fetches it when a widget trains, times or
# experiments), its analytic half alone (analytic*: the analytic model and the worked examples, the
# first module a served page fetches), TinyGPT read alone (model*: the character model and its
# inspection, for a page whose widgets only read TinyGPT), and the checkpoint facade (checkpoint*:
# a Hugging Face checkpoint with its own tokenizer, fetched by the checkpoint worker when a widget
# opens one; served pages only). The checkpoint facade is built twice: with relaxed SIMD too
# (checkpoint-relaxed_bg.wasm, its fused multiply-add; the worker takes it where the browser has
# relaxed SIMD), in a target directory of its own (other RUSTFLAGS would rebuild the rest each time).
# Both have the same exports, so they share one glue module (checked: cmp).
RELAXED := target/relaxed
RELAXED_ENV := CARGO_TARGET_DIR=$(CURDIR)/$(RELAXED) RUSTFLAGS='-C target-feature=+simd128,+relaxed-simd $(RUST_SRC_REMAP)'
# And a third time on threads (feature threads: checkpoint-threads*, with its own glue), for a
# cross-origin isolated page: shared memory and atomics, so std rebuilt for them (rust-src, cargo's
# build-std on the stable compiler: RUSTC_BOOTSTRAP), in a target directory of its own; wasm-pack's
# wasm-opt flags lack threads, so it is optimised here (scripts/wasm-threads.mjs adds its glue).
THREADS := target/threads
THREADS_ENV := RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=panic_abort,std CARGO_TARGET_DIR=$(CURDIR)/$(THREADS) \
	RUSTFLAGS='$(RUST_SRC_REMAP) -C target-feature=+atomics,+bulk-memory,+mutable-globals,+simd128 -C link-arg=--shared-memory \
	-C link-arg=--max-memory=4294967296 -C link-arg=--import-memory -C link-arg=--export=__wasm_init_tls \
	-C link-arg=--export=__tls_size -C link-arg=--export=__tls_align -C link-arg=--export=__tls_base'
wasm:
	$(call stage,'wasm: release builds into www/pkg/ (the whole facade, its analytic half, TinyGPT read alone, the checkpoint facade three times)')
	@[ -x node_modules/.bin/wasm-opt ] || { echo 'make wasm: no node_modules/.bin/wasm-opt; run make setup' >&2; exit 1; }
	wasm-pack build $(CRATE) --profile wasm-release --target web --out-dir ../www/pkg --no-typescript --no-pack
	wasm-pack build $(CRATE) --profile wasm-release --target web --out-dir ../www/pkg --out-name analytic --no-typescript --no-pack -- --no-default-features --features analytic-facade
	wasm-pack build $(CRATE) --profile wasm-release --target web --out-dir ../www/pkg --out-name model --no-typescript --no-pack -- --no-default-features --features tinygpt-facade
	wasm-pack build $(CRATE) --profile wasm-release --target web --out-dir ../www/pkg --out-name checkpoint --no-typescript --no-pack -- --no-default-features --features checkpoint-facade
	$(RELAXED_ENV) wasm-pack build $(CRATE) --profile wasm-release --target web --out-dir ../$(RELAXED)/pkg --out-name checkpoint --no-typescript --no-pack -- --no-default-features --features checkpoint-facade
	@cmp -s $(RELAXED)/pkg/checkpoint.js www/pkg/checkpoint.js || { echo 'make wasm: the relaxed-SIMD checkpoint engine needs other glue than www/pkg/checkpoint.js' >&2; exit 1; }
	cp $(RELAXED)/pkg/checkpoint_bg.wasm www/pkg/checkpoint-relaxed_bg.wasm
	$(THREADS_ENV) wasm-pack build $(CRATE) --profile wasm-release --target web --out-dir ../$(THREADS)/pkg --out-name checkpoint-threads --no-typescript --no-pack --no-opt -- --no-default-features --features threads
	wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-simd --enable-threads --enable-mutable-globals --enable-sign-ext $(THREADS)/pkg/checkpoint-threads_bg.wasm -o www/pkg/checkpoint-threads_bg.wasm
	node scripts/wasm-threads.mjs $(THREADS)/pkg www/pkg
	@ls -l www/pkg/*.wasm

# What leaves the repository (scripts/build-dist.mjs): dist/transformer-block.js (one classic script,
# wasm inside), dist/transformer-block-lesson.html (the lesson as one file that works from disk) and
# dist/npm/. Then scripts/prerender.mjs writes every widget's first render into the pages as
# declarative shadow DOM: the served pages into dist/pages/ (make dev serves them in place of www/'s;
# make site makes the deployable site of them) and the offline lesson in place. The lesson file is
# also copied into www/ (not committed) for the served pages' "Download this lesson" links (the
# English and French editions').
dist: wasm
	$(call stage,'dist: one-script embedding + offline lesson + npm package into dist/')
	@[ -x node_modules/.bin/esbuild ] || { echo 'make dist: no node_modules/.bin/esbuild; run make setup' >&2; exit 1; }
	node scripts/build-dist.mjs
	@# The gallery's real checkpoints (gallery/checkpoint.html): two test models beside the page.
	@for m in llama gpt2; do d=www/gallery/models/tiny-$$m; mkdir -p $$d; \
	  cp tests/reference/fixtures/checkpoints/$$m/config.json tests/reference/fixtures/checkpoints/$$m/tokenizer.json \
	    tests/reference/fixtures/checkpoints/$$m/*.safetensors* $$d/; done
	@# A docs page per element in the gallery, from the manifest just built (www/gallery/tb-NAME.html).
	node scripts/dist/element-docs.mjs
	$(call stage,'dist: the widgets first render into the pages (scripts/prerender.mjs)')
	node scripts/prerender.mjs
	cp dist/transformer-block-lesson*.html www/

# The text TinyGPT learns from: the lesson page's prose, its figures computed by the wasm as the page
# shows them (scripts/extract-prose.mjs). Committed; run this after editing www/index.html, then
# `make weights`.
corpus: wasm
	$(call stage,'corpus: the lesson prose into crate/data/lesson-prose.txt')
	node scripts/extract-prose.mjs > crate/data/lesson-prose.txt.partial
	mv crate/data/lesson-prose.txt.partial crate/data/lesson-prose.txt
	@wc -c crate/data/lesson-prose.txt

# The trained TinyGPTs the page ships, compiled into the wasm: the lessons' TinyGPT (2 blocks of
# width 32) that the reader runs, and six blocks of width 16 for the ablation and stream experiments
# (the experiment needs more than two blocks to say something; width 16 keeps the offline lesson in
# its budget). Stored a byte a weight with fewer levels than int8 (6 bits for the first, 7 for the
# second), which moves each held-out loss by under 0.01 nats and saves 10 KB of the lesson's gzip
# (BENCHMARKS.md). The settings are these and nothing else; the same binary on the same platform
# writes the same bytes. Optimised build (the bench profile): ~40 s for both.
WEIGHTS_SETTINGS := --seed 0 --steps 6000 --lr 0.003 --layers 2 --width 32 --heads 4 --norm pre --batch 16 --dtype int6
DEEP_WEIGHTS_SETTINGS := --seed 0 --steps 6000 --lr 0.003 --layers 6 --width 16 --heads 4 --norm pre --batch 16 --dtype int7

# $(call train-model,DIR,SETTINGS): tblock train into DIR, with training.json (the record) beside it.
define train-model
	target/release/tblock train $(2) --out $(1).partial > $(1).partial.json
	target/release/tblock eval --weights $(1).partial > $(1).partial.eval.json
	node scripts/training-record.mjs $(1).partial.json $(1).partial.eval.json "$(2)" > $(1).partial/training.json
	rm -f $(1).partial.json $(1).partial.eval.json
	rm -rf $(1) && mv $(1).partial $(1)
	@grep -E '"val_loss_as_shipped"' $(1)/training.json
endef

weights:
	$(call stage,'weights: crate/data/tiny-gpt and crate/data/tiny-gpt-6x16 (tblock train)')
	cargo build --release --bin tblock
	$(call train-model,crate/data/tiny-gpt,$(WEIGHTS_SETTINGS))
	$(call train-model,crate/data/tiny-gpt-6x16,$(DEEP_WEIGHTS_SETTINGS))

bench_mode := $(if $(QUICK), (quick run),)

# Timings, never asserted: printed, written to bench/results.json (QUICK=1: bench/results-quick.json),
# recorded in BENCHMARKS.md with the machine they came from.
bench: setup site
	$(call stage,'bench: sizes; load; sliders; TinyGPT native / wasm / PyTorch$(bench_mode)')
	node scripts/bench.mjs $(if $(QUICK),--quick,)

bench-training: setup wasm
	$(call stage,'bench-training: one training step: native / wasm / PyTorch')
	node scripts/bench-training.mjs

# tblock eval's peak RSS (against the mapped .safetensors bytes) and speed on a random checkpoint in
# Qwen2-0.5B's shape, written under /tmp by transformers (never committed), beside PyTorch on the same
# ids: bench/checkpoint.json. Needs tests/reference/.venv with torch to write the checkpoint; without
# it, says it is skipped and succeeds. A few minutes on two cores.
bench-checkpoint: setup
	$(call stage,'bench-checkpoint: tblock eval on a 0.5 B bf16 checkpoint: peak RSS / tokens/s / PyTorch')
	cargo build --release -p transformer-block --bin tblock
	node scripts/bench-checkpoint.mjs

# A GPT-2-small-shaped checkpoint in the page (<tb-attention weights-src>, the checkpoint worker) in
# headless Chromium: its bytes' arrival, the first maps, a forward at ~16 and ~64 tokens.
bench-checkpoint-page: setup wasm
	$(call stage,'bench-checkpoint-page: a 124 M checkpoint in the page: first maps / forward time')
	node scripts/bench-checkpoint-page.mjs

# The fuzz targets in fuzz/ (cargo-fuzz): the config.json import, the safetensors loader, the training
# inputs. Each runs FUZZ_SECONDS and make stops at the first crash, its input kept in
# fuzz/artifacts/<target>/. Needs nightly Rust and cargo-fuzz, installed here if missing (never by
# setup or make test). --debug-assertions: overflow checks on, as in the tests. fuzz/FINDINGS.md
# records the runs.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= config_json weights train

fuzz:
	$(call stage,'fuzz: $(FUZZ_TARGETS) for $(FUZZ_SECONDS) s each (cargo-fuzz with nightly)')
	rustup run nightly rustc --version > /dev/null 2>&1 || rustup toolchain install nightly --profile minimal
	command -v cargo-fuzz > /dev/null || cargo install cargo-fuzz --locked || cargo install cargo-fuzz
	for target in $(FUZZ_TARGETS); do \
		cargo +nightly fuzz run --debug-assertions $$target -- -max_total_time=$(FUZZ_SECONDS) -timeout=30 \
			$$([ -f fuzz/$$target.dict ] && echo -dict=$(CURDIR)/fuzz/$$target.dict); \
	done

# The deployable site (scripts/site.mjs): dist/pages/'s prerendered pages with the folder's
# minified modules, the wasm, the offline lessons, and a .br and .gz beside each text file.
# SITE_URL: where it will be served from (canonical and hreflang links are absolute).
SITE_URL ?= http://localhost:$(PORT)/
site: dist
	$(call stage,'site: dist/site/: the folder to copy to a static host (for $(SITE_URL))')
	SITE_URL=$(SITE_URL) node scripts/site.mjs

# What a static host serves: dist/site/, each file's precompressed copy where the browser takes it.
serve: setup site
	$(call stage,'serve: dist/site/ on http://localhost:$(PORT)/')
	PORT=$(PORT) node scripts/serve.mjs --site

# The sources as they are (www/, pages prerendered by make dist while they are not older): an edit
# under www/src shows on reload.
dev: setup dist
	$(call stage,'dev: www/ on http://localhost:$(PORT)/')
	PORT=$(PORT) node scripts/serve.mjs

# Nine stages in order; any failing stage stops make with a non-zero status.
test: setup test-fmt test-clippy test-cargo test-wasm-chrome test-wasm-firefox test-unit test-e2e test-e2e-firefox test-bench

test-fmt:
	$(call stage,'test 1/9: formatting (rustfmt)')
	cargo fmt --all -- --check

test-clippy:
	$(call stage,'test 2/9: lints (clippy, native and wasm32)')
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy --package transformer-block --lib --test web --test web_train --test web_hostile --test web_checkpoint --target wasm32-unknown-unknown -- -D warnings
	cargo clippy --package transformer-block --lib --target wasm32-unknown-unknown --no-default-features --features analytic-facade -- -D warnings
	cargo clippy --package transformer-block --lib --target wasm32-unknown-unknown --no-default-features --features tinygpt-facade -- -D warnings
	cargo clippy --package transformer-block --lib --target wasm32-unknown-unknown --no-default-features --features checkpoint-facade -- -D warnings
	$(THREADS_ENV) cargo clippy --package transformer-block --lib --target wasm32-unknown-unknown --no-default-features --features threads -- -D warnings
	cargo clippy --package tb-kernels --lib --tests --target wasm32-unknown-unknown -- -D warnings
	$(RELAXED_ENV) cargo clippy --package tb-kernels --lib --tests --target wasm32-unknown-unknown -- -D warnings

test-cargo:
	$(call stage,'test 3/9: Rust tests (native)')
	cargo test --workspace

# The kernels' own tests in wasm too, built as the page's engines are: with SIMD128 (every build) and
# with relaxed SIMD (the checkpoint engine where the browser has it), in its own target dir.
test-wasm-chrome:
	$(call stage,'test 4/9: wasm tests in headless Chromium')
	$(chrome_only) wasm-pack test --headless --chrome $(CRATE)
	$(chrome_only) wasm-pack test --headless --chrome kernels
	$(chrome_only) $(RELAXED_ENV) wasm-pack test --headless --chrome kernels

test-wasm-firefox:
	$(call stage,'test 5/9: wasm tests in headless Firefox')
	$(firefox_only) wasm-pack test --headless --firefox $(CRATE)
	$(firefox_only) $(RELAXED_ENV) wasm-pack test --headless --firefox kernels

test-unit:
	$(call stage,'test 6/9: front-end unit tests (node --test)')
	node --test tests/unit/*.test.js

# The end-to-end tests run against the release build a reader would get, and what dist/ ships.
test-e2e: site
	$(call stage,'test 7/9: browser end-to-end tests (Playwright, Chromium)')
	playwright test

# The same lesson in Firefox ESR through geckodriver (selenium-webdriver), served and as the offline
# file: every widget renders, one interaction per kind of widget, no error on the page.
test-e2e-firefox: site
	$(call stage,'test 8/9: lesson smoke test in headless Firefox (geckodriver, served and offline)')
	node --test tests/firefox/*.test.mjs

# The benchmark's smoke run: every part of `make bench` runs, with few samples; nothing is asserted
# about its times (they would fail on a busy machine), only that the command works end to end.
test-bench: site
	$(call stage,'test 9/9: make bench QUICK=1 (smoke run; times not asserted)')
	node scripts/bench.mjs --quick

clean:
	cargo clean
	rm -rf www/pkg dist dist.partial www/transformer-block-lesson*.html test-results playwright-report
