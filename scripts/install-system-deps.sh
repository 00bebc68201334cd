#!/usr/bin/env bash
# Installs the Debian packages the tests talk to, when they are missing:
# dovecot-imapd (a real IMAP server), chromium (a real browser) and
# postgresql (the second database engine the service supports), and npm (for
# axe-core, which the browser tests install into .venv/axe on first use).
set -euo pipefail
missing=()
[ -x /usr/sbin/dovecot ] || missing+=(dovecot-imapd)
[ -x /usr/bin/chromium ] || missing+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
# npm installs axe-core (the accessibility checker the browser tests inject).
command -v npm >/dev/null || missing+=(npm)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing ${missing[*]} with apt-get"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "need root (or sudo) to install ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
