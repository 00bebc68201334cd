# The two commands of the README: `make run` and `make test`.
VENV ?= .venv
PYTHON ?= python3
BIN = $(VENV)/bin

.PHONY: run test venv system-deps bench translations clean

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

test: venv system-deps
	$(BIN)/pytest

bench: venv system-deps
	for b in bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

translations: venv
	$(BIN)/python scripts/update_translations.py

clean:
	rm -rf $(VENV) build *.egg-info
