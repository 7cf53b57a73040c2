// `npm run dev`: the API rebuilt and restarted on change (esbuild watch + node --watch) and the
// Vite dev server with HMR on http://localhost:5173, proxying /api and /socket.io to the API.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'

const apiPort = process.env.PORT ?? '3000'
const env = {
  ...process.env,
  PORT: apiPort,
  API_PORT: apiPort,
  PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:5173',
}
const children = []

function run(command, args, opts = {}) {
  const child = spawn(command, args, { stdio: 'inherit', env, ...opts })
  children.push(child)
  child.on('exit', (code) => {
    if (code !== 0 && code !== null) stop(code)
  })
  return child
}

function stop(code = 0) {
  for (const child of children) child.kill('SIGTERM')
  process.exit(code)
}
process.on('SIGINT', () => stop())
process.on('SIGTERM', () => stop())

run('node', ['apps/server/build.mjs', '--watch'])
while (!existsSync('apps/server/dist/server.js')) await new Promise((r) => setTimeout(r, 100))
run('node', ['--watch', '--watch-preserve-output', 'apps/server/dist/server.js'])
run('npx', ['vite'], { cwd: 'apps/web' })
