import type { Executor } from './client'

const built = new WeakMap<Executor, Map<string, unknown>>()

/**
 * A query that every request runs (the session's user, the access check, the circle list), built once
 * per database handle and then only executed with its placeholders filled: drizzle skips assembling the
 * SQL, and PostgreSQL keeps a named prepared statement per connection, so it skips parsing and planning
 * too (docs/decisions/0012). A transaction handle gets its own, built on its first use.
 */
export function prepared<Query>(
  db: Executor,
  name: string,
  build: (db: Executor) => { prepare(name: string): Query },
): Query {
  let queries = built.get(db)
  if (!queries) {
    queries = new Map()
    built.set(db, queries)
  }
  let query = queries.get(name) as Query | undefined
  if (!query) {
    query = build(db).prepare(name)
    queries.set(name, query)
  }
  return query
}
