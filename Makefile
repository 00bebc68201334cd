# The two commands of the README: `make run` and `make test`.
VENV ?= .venv
PYTHON ?= python3
BIN = $(VENV)/bin

.PHONY: run test faults venv constraints system-deps offline-assets bench translations container-check clean

venv: $(VENV)/.installed

# The versions of constraints.txt, so that CI and every checkout test the same libraries.
$(VENV)/.installed: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[test]'
	touch $@

# Re-pin constraints.txt: the newest versions pyproject.toml allows, resolved in a
# throwaway venv (then `make test`, read the diff, commit it).
CONSTRAINTS_VENV = .venv-constraints
constraints:
	rm -rf $(CONSTRAINTS_VENV)
	$(PYTHON) -m venv $(CONSTRAINTS_VENV)
	$(CONSTRAINTS_VENV)/bin/pip install --quiet --upgrade pip
	$(CONSTRAINTS_VENV)/bin/pip install --quiet -e '.[test]'
	{ echo "# What \`make venv\` installs, pinned (\`make constraints\` refreshes it; README, Tests)."; \
	  $(CONSTRAINTS_VENV)/bin/pip freeze --exclude-editable; } > constraints.txt
	rm -rf $(CONSTRAINTS_VENV)

# Web server, worker and embedded SMTP server on localhost, with a demo game.
run: venv
	$(BIN)/pbm run

# Debian's Dovecot and Chromium, installed through apt when missing.
system-deps:
	scripts/install-system-deps.sh

# Pyodide (pinned, integrity checked) from the npm registry into build/pyodide, for the
# narrator's offline page and its tests (scripts/fetch-pyodide.sh; 5.6 MB, once).
offline-assets:
	scripts/fetch-pyodide.sh

# The linter, the type checker ([tool.ruff] and [tool.mypy] in pyproject.toml), the tests.
test: venv system-deps offline-assets
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/pytest

# The fault suite (minutes, not part of `make test`): prints what each fault did.
faults: venv system-deps
	$(BIN)/pytest faults -p no:cacheprovider -q

# Every benchmark runs even if one fails (each records its figures in
# bench/results.json); make fails at the end if any did.
bench: venv system-deps
	$(BIN)/pip install --quiet -e '.[bench]'
	@failed=""; for b in bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || failed="$$failed $$b"; done; \
	if [ -n "$$failed" ]; then echo "failed:$$failed"; exit 1; fi

# Builds the Containerfile on a Debian base made by debootstrap and runs it with
# buildah (root; minutes; not part of `make test`): scripts/container-check.sh.
container-check:
	scripts/container-check.sh

translations: venv
	$(BIN)/python scripts/update_translations.py

clean:
	rm -rf $(VENV) build *.egg-info
