# shellcheck shell=bash
# Brings up a local PostgreSQL cluster for the server test suite and stops it again afterwards, but
# only if this run started it. Sourced by scripts/test.sh (after scripts/lib/system-deps.sh).
#
#   pg_test_start   starts (or reuses) a cluster, ensures the test role, sets PG_TEST_URL
#   pg_test_stop    stops the cluster if pg_test_start started it; safe to call more than once
#
# Environment knobs: PG_TEST_USER / PG_TEST_PASSWORD (default circles/circles).

PG_TEST_USER=${PG_TEST_USER:-circles}
PG_TEST_PASSWORD=${PG_TEST_PASSWORD:-circles}
PG_TEST_URL=''
PG_STARTED_VERSION=''
PG_STARTED_CLUSTER=''

# Runs psql as the postgres superuser over the local socket, reading SQL from stdin.
_pg_psql_as_postgres() {
  local port=$1
  (cd / && su -s /bin/sh postgres -c "psql -X -q -v ON_ERROR_STOP=1 -p $port -d postgres")
}

pg_test_start() {
  local version cluster port status line
  if [ "$(id -u)" -ne 0 ]; then
    echo "error: starting PostgreSQL needs root (pg_ctlcluster, su postgres); run as root, or set CIRCLES_TEST_DATABASE_URL to an existing PostgreSQL" >&2
    return 1
  fi
  version=$(pg_installed_major)
  if [ -z "$version" ]; then
    echo "error: no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install -y postgresql)" >&2
    return 1
  fi

  # Prefer the cluster named "main" of the newest installed version, else any cluster of it.
  line=$(pg_lsclusters -h 2>/dev/null | awk -v v="$version" '$1 == v && $2 == "main"' | head -n 1)
  [ -n "$line" ] || line=$(pg_lsclusters -h 2>/dev/null | awk -v v="$version" '$1 == v' | head -n 1)
  if [ -z "$line" ]; then
    echo "==> Creating PostgreSQL $version cluster 'main'"
    pg_createcluster "$version" main >/dev/null || { echo "error: pg_createcluster $version main failed" >&2; return 1; }
    line=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main"' | head -n 1)
  fi
  cluster=$(awk '{print $2}' <<<"$line")
  port=$(awk '{print $3}' <<<"$line")
  status=$(awk '{print $4}' <<<"$line")
  if [ -z "$cluster" ] || [ -z "$port" ]; then
    echo "error: could not find a PostgreSQL $version cluster (pg_lsclusters: '$line')" >&2
    return 1
  fi

  if [[ $status == online* ]]; then
    echo "==> PostgreSQL $version/$cluster already running on port $port (will be left running)"
  else
    echo "==> Starting PostgreSQL $version/$cluster on port $port"
    if ! pg_ctlcluster --skip-systemctl-redirect "$version" "$cluster" start; then
      echo "error: pg_ctlcluster $version $cluster start failed; log:" >&2
      tail -n 20 "/var/log/postgresql/postgresql-$version-$cluster.log" >&2 2>/dev/null || true
      return 1
    fi
    PG_STARTED_VERSION=$version
    PG_STARTED_CLUSTER=$cluster
  fi

  local i
  for i in $(seq 1 30); do
    pg_isready -q -h 127.0.0.1 -p "$port" && break
    [ "$i" -eq 30 ] && { echo "error: PostgreSQL on 127.0.0.1:$port not ready after 30 s" >&2; return 1; }
    sleep 1
  done

  # A login role with a password; SUPERUSER because the server suite creates a database per test file.
  _pg_psql_as_postgres "$port" <<SQL || { echo "error: could not create role $PG_TEST_USER" >&2; return 1; }
DO \$\$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$PG_TEST_USER') THEN
    CREATE ROLE "$PG_TEST_USER" LOGIN SUPERUSER PASSWORD '$PG_TEST_PASSWORD';
  ELSE
    ALTER ROLE "$PG_TEST_USER" LOGIN SUPERUSER PASSWORD '$PG_TEST_PASSWORD';
  END IF;
END
\$\$;
SQL

  PG_TEST_URL="postgres://$PG_TEST_USER:$PG_TEST_PASSWORD@127.0.0.1:$port/postgres"
  # Prove the URL works over TCP with password authentication before handing it to the tests.
  if ! psql -X -q -At "$PG_TEST_URL" -c 'select 1' >/dev/null; then
    echo "error: cannot connect as $PG_TEST_USER to 127.0.0.1:$port" >&2
    return 1
  fi
  echo "==> PostgreSQL ready: postgres://$PG_TEST_USER:***@127.0.0.1:$port/postgres"
}

pg_test_stop() {
  [ -n "$PG_STARTED_CLUSTER" ] || return 0
  echo "==> Stopping PostgreSQL $PG_STARTED_VERSION/$PG_STARTED_CLUSTER (started by this run)"
  pg_ctlcluster --skip-systemctl-redirect -m fast "$PG_STARTED_VERSION" "$PG_STARTED_CLUSTER" stop ||
    echo "warning: could not stop PostgreSQL $PG_STARTED_VERSION/$PG_STARTED_CLUSTER" >&2
  PG_STARTED_VERSION=''
  PG_STARTED_CLUSTER=''
}
