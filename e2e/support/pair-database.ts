// A fresh PostgreSQL database for running the suite against two servers (E2E_PAIR_DATABASE_URL):
// created on the given server, dropped again at teardown.
import { randomBytes } from 'node:crypto'
import pg from 'pg'

async function run(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

export async function createPairDatabase(serverUrl: string) {
  const name = `circles_e2e_${randomBytes(6).toString('hex')}`
  await run(serverUrl, `create database ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () => run(serverUrl, `drop database if exists ${name} with (force)`),
  }
}
