# shellcheck shell=bash
# System packages the test run needs: Debian's Chromium and its Liberation fonts (for Playwright) and
# PostgreSQL (for the server suite on a real database). Installs what is missing with apt-get when running as root,
# otherwise fails with a message naming what to install. Sourced by scripts/test.sh.

# Prints the newest installed PostgreSQL major version that has server binaries, or nothing.
pg_installed_major() {
  local dir version best=''
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/postgres" ] || continue
    version=$(basename "$(dirname "$dir")")
    if [ -z "$best" ] || [ "$version" -gt "$best" ] 2>/dev/null; then best=$version; fi
  done
  printf '%s' "$best"
}

chromium_missing() { [ ! -x /usr/bin/chromium ]; }

# Arial's metric twin: the app's fallback face for Inter (docs/decisions/0033), which the e2e font test
# draws with. Chromium only recommends it.
liberation_missing() { [ ! -f /usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf ]; }

postgresql_missing() {
  ! command -v pg_ctlcluster >/dev/null 2>&1 ||
    ! command -v pg_lsclusters >/dev/null 2>&1 ||
    [ -z "$(pg_installed_major)" ]
}

# Installs Chromium and PostgreSQL when missing. Returns non-zero (with a message) when it cannot.
ensure_system_deps() {
  local -a missing=()
  chromium_missing && missing+=(chromium)
  liberation_missing && missing+=(fonts-liberation)
  postgresql_missing && missing+=(postgresql)
  if [ "${#missing[@]}" -eq 0 ]; then
    return 0
  fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "error: missing system packages: ${missing[*]}" >&2
    echo "       install them as root first:  apt-get update && apt-get install -y ${missing[*]}" >&2
    return 1
  fi
  echo "==> Installing missing system packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q || { echo "error: apt-get update failed" >&2; return 1; }
  apt-get install -y -q "${missing[@]}" || { echo "error: apt-get install ${missing[*]} failed" >&2; return 1; }
  if chromium_missing; then
    echo "error: /usr/bin/chromium is still missing after installing chromium" >&2
    return 1
  fi
  if postgresql_missing; then
    echo "error: PostgreSQL server binaries are still missing after installing postgresql" >&2
    return 1
  fi
}
