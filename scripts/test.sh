#!/usr/bin/env bash
# `npm test`: runs every suite and ends with one line `tests: N passed, M failed[, K skipped]`.
#
#   1. check        npm run check (typecheck, lint, format); counts as one test
#   2. unit         vitest project unit
#   3. web          vitest project web (run on its own, so a project with no tests is caught)
#   4. server       vitest project server on PGlite (no DATABASE_URL)
#   5. server-pg    the same suite on a local PostgreSQL (DATABASE_URL set)
#   6. server-outage  two real server processes through a restart of a private PostgreSQL cluster
#                   (initdb into a temporary directory, as the postgres user when root; never skipped)
#   7. build        npm run build; counts as one test (e2e needs the built app)
#   8. e2e          Playwright in Debian's Chromium against the built server (embedded PGlite)
#   9. e2e-pair     the specs listed in e2e/playwright.config.ts (real-time, handovers, accounts, lending,
#                   ...) against two servers on one PostgreSQL; they run only here, not in e2e as well
#
# On a fresh Debian machine it installs Chromium and PostgreSQL itself (as root). Every suite runs even
# when an earlier one fails, so the summary is complete; the exit status is 1 if anything failed or a
# suite ran no tests. Set CIRCLES_TEST_DATABASE_URL to use an existing PostgreSQL instead of starting
# the local cluster.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
# shellcheck source=lib/system-deps.sh
source scripts/lib/system-deps.sh
# shellcheck source=lib/postgres.sh
source scripts/lib/postgres.sh

# The PGlite suites must not see a DATABASE_URL from the caller's environment.
unset DATABASE_URL

REPORT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/circles-tests.XXXXXX") || exit 1
MANIFEST=$REPORT_DIR/suites.tsv
: >"$MANIFEST"

cleanup() {
  pg_test_stop
  rm -rf "$REPORT_DIR"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

section() { printf '\n==> %s\n' "$*"; }

# record NAME KIND EXIT_CODE SECONDS [REPORT_FILE]   (KIND: status | vitest | playwright)
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "${5:-}" >>"$MANIFEST"; }

# run_status NAME CMD...: a step without a test report; passes or fails as a whole.
run_status() {
  local name=$1 start=$SECONDS rc
  shift
  section "$name: $*"
  "$@"
  rc=$?
  record "$name" status "$rc" $((SECONDS - start))
  return "$rc"
}

# run_vitest NAME VITEST_ARGS...: vitest run with the json reporter next to the default one.
run_vitest() {
  local name=$1 start=$SECONDS rc file=$REPORT_DIR/$1.json
  shift
  section "$name: vitest run $*"
  npx --no-install vitest run "$@" --reporter=default --reporter=json --outputFile="$file"
  rc=$?
  record "$name" vitest "$rc" $((SECONDS - start)) "$file"
}

section "system packages (chromium, postgresql)"
if [ -n "${CIRCLES_TEST_DATABASE_URL:-}" ]; then
  postgresql_missing() { false; }
fi
ensure_system_deps || record system-packages status 1 0

run_status check npm run check

run_vitest unit --project unit
run_vitest web --project web
run_vitest server --project server

if [ -n "${CIRCLES_TEST_DATABASE_URL:-}" ]; then
  PG_TEST_URL=$CIRCLES_TEST_DATABASE_URL
  pg_ok=0
else
  section "PostgreSQL for server-pg"
  pg_test_start
  pg_ok=$?
fi
if [ "$pg_ok" -eq 0 ]; then
  DATABASE_URL=$PG_TEST_URL run_vitest server-pg --project server
else
  echo "error: PostgreSQL is not available; the server-pg suite cannot run" >&2
  record server-pg vitest 1 0
fi

# Needs PostgreSQL's binaries (installed above), not the shared cluster: it starts and restarts its own.
run_vitest server-outage --project server-outage

if run_status build npm run build; then
  start=$SECONDS
  file=$REPORT_DIR/e2e.json
  section "e2e: playwright test -c e2e/playwright.config.ts"
  E2E_SPECS=single E2E_JSON_REPORT=$file npx --no-install playwright test -c e2e/playwright.config.ts
  rc=$?
  record e2e playwright "$rc" $((SECONDS - start)) "$file"

  # Two instances behind one load balancer: Ida on the first server, Ben on the second. Also the
  # account specs of issue 24 (each point on PostgreSQL too), lending, and the specs that need the
  # database's hand. Each spec runs once (e2e above skips these, E2E_SPECS=single), but the condition
  # evidence specs of issue 28, which run on both databases.
  start=$SECONDS
  file=$REPORT_DIR/e2e-pair.json
  section "e2e-pair: the two-browser specs against two servers on one PostgreSQL"
  if [ "$pg_ok" -eq 0 ]; then
    E2E_SPECS=pair E2E_PAIR_DATABASE_URL=$PG_TEST_URL E2E_JSON_REPORT=$file npx --no-install playwright \
      test -c e2e/playwright.config.ts --output e2e/test-results-pair --project chromium
    rc=$?
  else
    echo "error: PostgreSQL is not available; the e2e-pair suite cannot run" >&2
    rc=1
  fi
  record e2e-pair playwright "$rc" $((SECONDS - start)) "$file"
else
  echo "error: the build failed; e2e cannot run" >&2
  record e2e playwright 1 0
  record e2e-pair playwright 1 0
fi
pg_test_stop

section "summary"
node scripts/summarize-tests.mjs "$MANIFEST"
