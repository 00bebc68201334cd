#!/bin/sh
# `make container-check`: build the Containerfile and run the image, with no
# image registry. Needs root, Debian's debootstrap and buildah (installed
# through apt when missing) and the network to Debian's mirror and PyPI.
#
#   1. a Debian 12 base (minbase, plus python3 and its venv module) by debootstrap;
#   2. the image on it: buildah bud --isolation chroot, BASE given as a build ARG;
#   3. `pbm run` inside it (buildah run), web and SMTP on spare ports of 127.0.0.1;
#   4. /healthz answers 200 (the worker beats) and the home page serves the demo;
#   5. stops it, and removes everything: buildah keeps its images and containers
#      in a storage of its own under the work folder, never the system's.
#
# CONTAINER_CHECK_MIRROR: the Debian mirror (default http://deb.debian.org/debian).
# CONTAINER_CHECK_KEEP=1 keeps the work folder, to look at after a failure.
set -eu

MIRROR=${CONTAINER_CHECK_MIRROR:-http://deb.debian.org/debian}
HOST_CA=/etc/ssl/certs/ca-certificates.crt
HERE=$(cd "$(dirname "$0")/.." && pwd)

say() { printf '== %s\n' "$*"; }
fail() { printf 'container-check FAILED: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "needs root (debootstrap and buildah's chroot isolation)"
missing=""
command -v debootstrap >/dev/null || missing="$missing debootstrap"
command -v buildah >/dev/null || missing="$missing buildah"
if [ -n "$missing" ]; then
    say "installing$missing (apt)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing >/dev/null \
        || { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing >/dev/null; }
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/pbm-container-check.XXXXXX")
# buildah's own storage and run state, here and nowhere else.
B="buildah --root $WORK/storage --runroot $WORK/run --storage-driver vfs"
RUNNING=""
CONTAINERS=""

# The processes `buildah run` started, all of them (chroot isolation shares the
# host's process table): the only ones this script ever signals.
descendants() {
    ps -eo pid=,ppid= | awk -v root="$1" '
        { parent[$1] = $2 }
        END { for (p in parent) { q = p; while (q in parent && q != root && q > 1) q = parent[q];
                                  if (q == root && p != root) print p } }'
}

stop_run() {  # $1: the signal; the buildah run process and everything under it
    [ -n "$RUNNING" ] || return 0
    for pid in $(descendants "$RUNNING") "$RUNNING"; do kill -s "$1" "$pid" 2>/dev/null || true; done
}

cleanup() {
    status=$?
    if [ -n "$RUNNING" ] && kill -0 "$RUNNING" 2>/dev/null; then
        stop_run TERM
        sleep 5
        stop_run KILL
        sleep 1
    fi
    for c in $CONTAINERS; do $B rm "$c" >/dev/null 2>&1 || true; done
    $B rmi --all --force >/dev/null 2>&1 || true
    # Whatever a run left mounted under the work folder is unmounted before
    # anything is removed (a /dev bound into a chroot must never be emptied).
    grep -o " $WORK[^ ]*" /proc/self/mountinfo | sort -r | while read -r mount; do
        umount -l "$mount" 2>/dev/null || true
    done
    if [ -n "$RUNNING" ] && [ -n "$(descendants "$RUNNING")" ]; then
        echo "processes of the container still run: work folder kept: $WORK" >&2
    elif [ "${CONTAINER_CHECK_KEEP:-}" = 1 ]; then
        echo "work folder kept: $WORK"
    else
        rm -rf --one-file-system "$WORK"
    fi
    [ "$status" = 0 ] && echo "container-check passed" || echo "container-check failed (exit $status)" >&2
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

say "1. a Debian 12 base by debootstrap ($MIRROR)"
debootstrap --variant=minbase --include=python3,python3-venv bookworm "$WORK/rootfs" "$MIRROR" \
    >"$WORK/debootstrap.log" 2>&1 || { tail -20 "$WORK/debootstrap.log"; fail "debootstrap"; }
rm -rf "$WORK/rootfs/var/cache/apt/archives/"*.deb "$WORK/rootfs/var/lib/apt/lists/"*
tar -C "$WORK/rootfs" -cf "$WORK/base.tar" .
rm -rf --one-file-system "$WORK/rootfs"
base=$($B from scratch)
CONTAINERS="$base"
$B add "$base" "$WORK/base.tar" / >/dev/null
# What an image from a registry carries and an imported tree does not.
$B config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env LANG=C.UTF-8 --cmd /bin/bash "$base"
$B commit --quiet "$base" localhost/pbm-check-base >/dev/null
rm -f "$WORK/base.tar"

say "2. the image: buildah bud --isolation chroot"
# pip needs this machine's certificate bundle: mounted beside the image's own,
# never over it (that breaks Debian's ca-certificates inside), and named by PIP_CERT.
$B bud --isolation chroot --format docker --layers=false \
    --build-arg BASE=localhost/pbm-check-base --build-arg PIP_CERT=/run/host-ca.crt \
    -v "$HOST_CA:/run/host-ca.crt:ro" \
    -f "$HERE/Containerfile" -t localhost/lupus-pbm-check "$HERE" >"$WORK/build.log" 2>&1 \
    || { tail -30 "$WORK/build.log"; fail "the image did not build (log above)"; }
echo "built: $($B images --noheading --format '{{.Name}}:{{.Tag}} {{.Size}}' localhost/lupus-pbm-check)"

say "3. pbm run inside it (buildah run)"
WEB_PORT=$(free_port)
SMTP_PORT=$(free_port)
app=$($B from localhost/lupus-pbm-check)
CONTAINERS="$CONTAINERS $app"
# The image's user, environment and /data, as an engine would run it, and its
# PID 1: tini, which passes the engine's stop signal (SIGTERM) on to pbm run.
$B run --isolation chroot "$app" -- \
    tini -- pbm run --host 127.0.0.1 --port "$WEB_PORT" --smtp-port "$SMTP_PORT" \
    >"$WORK/run.log" 2>&1 &
RUNNING=$!

say "4. /healthz and the home page on 127.0.0.1:$WEB_PORT"
python3 - "$WEB_PORT" "$RUNNING" <<'EOF' || { tail -30 "$WORK/run.log"; fail "the service inside did not answer as it should"; }
import json, os, sys, time, urllib.error, urllib.request
port, pid = sys.argv[1], int(sys.argv[2])
base = f"http://127.0.0.1:{port}"
deadline, last = time.monotonic() + 240, "no answer"
while time.monotonic() < deadline:
    try:
        os.kill(pid, 0)
    except OSError:
        sys.exit("buildah run ended before the service answered")
    try:
        with urllib.request.urlopen(base + "/healthz", timeout=5) as r:
            report = json.load(r)
            print(f"/healthz: {r.status} {report['status']}; schema {report['schema']}; "
                  f"worker alive: {report['worker']['alive']}")
            break
    except urllib.error.HTTPError as exc:
        last = f"{exc.code} {exc.read()[:300]!r}"  # 503 until the worker's first beat
    except OSError as exc:
        last = str(exc)
    time.sleep(1)
else:
    sys.exit(f"/healthz never answered 200: {last}")
with urllib.request.urlopen(base + "/", timeout=10) as r:
    page = r.read().decode()
    if r.status != 200 or "Lupus" not in page:
        sys.exit(f"home page: {r.status}, no 'Lupus' in it")
    print(f"home page: {r.status}, {len(page)} characters")
with urllib.request.urlopen(base + "/login", timeout=10) as r:
    print(f"login page: {r.status}")
EOF

say "5. stop it"
# SIGTERM to tini, as an engine stopping the container sends it to PID 1.
tini=""
for pid in $(descendants "$RUNNING"); do
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = tini ] && tini=$pid
done
[ -n "$tini" ] || fail "no tini among the container's processes"
kill -s TERM "$tini"
for _ in $(seq 1 60); do kill -0 "$RUNNING" 2>/dev/null || break; sleep 0.5; done
if kill -0 "$RUNNING" 2>/dev/null; then fail "still running 30 s after SIGTERM"; fi
wait "$RUNNING" 2>/dev/null || true
RUNNING=""
grep -q "stopped; not cleanly" "$WORK/run.log" && { tail -20 "$WORK/run.log"; fail "pbm run did not stop cleanly"; }
echo "stopped"
