#!/bin/sh
# Checks the systemd units with `systemd-analyze verify`, in a scratch root
# that holds the paths they name (/srv/lupus/.venv/bin/pbm), so the check
# runs on a development machine too. Fails on any warning, not only on errors
# (verify exits 0 after "Unknown key" and similar), and on a service without
# UMask=0077.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/srv/lupus/.venv/bin" "$root/etc/systemd/system" "$root/usr/lib/systemd" "$root/bin" "$root/usr/bin"
printf '#!/bin/sh\n' > "$root/srv/lupus/.venv/bin/pbm"
chmod +x "$root/srv/lupus/.venv/bin/pbm"
cp /bin/sh "$root/bin/sh"
cp /usr/bin/find "$root/usr/bin/find"
cp -r /lib/systemd/system "$root/usr/lib/systemd/"
cp "$here"/systemd/* "$root/etc/systemd/system/"
# systemd's default umask (0022) would leave the database and the mail the service
# writes readable by every local user: each service must say UMask=0077.
for unit in "$here"/systemd/*.service; do
    grep -qx 'UMask=0077' "$unit" || { echo "$(basename "$unit"): no UMask=0077 in [Service]"; exit 1; }
done
cd "$root/etc/systemd/system"
out=$(systemd-analyze verify --root="$root" pbm-web.service pbm-worker.service pbm-backup.service pbm-backup.timer 2>&1) || { echo "$out"; exit 1; }
if [ -n "$out" ]; then echo "$out"; exit 1; fi
echo "systemd-analyze verify: the units are clean ($(systemd-analyze --version | head -1))"
