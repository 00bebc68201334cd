# The two commands of the README: `make run` and `make test`.
VENV ?= .venv
PYTHON ?= python3
BIN = $(VENV)/bin

.PHONY: run test faults venv system-deps bench translations container-check clean

venv: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

# Web server, worker and embedded SMTP server on localhost, with a demo game.
run: venv
	$(BIN)/pbm run

# Debian's Dovecot and Chromium, installed through apt when missing.
system-deps:
	scripts/install-system-deps.sh

# The linter, the type checker ([tool.ruff] and [tool.mypy] in pyproject.toml), the tests.
test: venv system-deps
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
