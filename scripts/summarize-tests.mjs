#!/usr/bin/env node
// Sums the results of every suite that scripts/test.sh ran and prints, as the last line,
//   tests: N passed, M failed[, K skipped]
// Usage: node scripts/summarize-tests.mjs <manifest.tsv>
// Each manifest line is NAME<TAB>KIND<TAB>EXIT_CODE<TAB>SECONDS<TAB>REPORT_FILE, where KIND is
//   status      a step without a report (check, build): one passed or one failed test
//   vitest      vitest's json reporter output (jest-compatible numbers)
//   playwright  Playwright's json reporter output (stats.expected/unexpected/flaky/skipped)
// Exits 1 if any suite failed, exited non-zero, wrote no usable report or ran zero tests. Such a suite
// always counts at least one failed test, so the summary line never reads "0 failed" on a failing run.
import { readFileSync } from 'node:fs'

const firstLine = (text) =>
  String(text ?? '')
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim() ?? ''

function readReport(file) {
  if (!file) return { error: 'no report (the suite did not run)' }
  try {
    return { report: JSON.parse(readFileSync(file, 'utf8')) }
  } catch (error) {
    return {
      error: error.code === 'ENOENT' ? `no report written (${file})` : `unreadable report: ${error.message}`,
    }
  }
}

function countVitest(report, notes) {
  const passed = report.numPassedTests ?? 0
  let failed = report.numFailedTests ?? 0
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0)
  // A test file that fails to load (syntax error, failing beforeAll) has no failed test of its own.
  for (const file of report.testResults ?? []) {
    const failures = (file.assertionResults ?? []).filter((test) => test.status === 'failed')
    // Named here, since CI keeps only the end of the output.
    for (const test of failures)
      notes.push(
        `failed: ${file.name} > ${test.fullName ?? test.title}: ${firstLine(test.failureMessages?.[0])}`,
      )
    const ownFailures = failures.length
    if (file.status === 'failed' && ownFailures === 0) {
      failed += 1
      notes.push(`file failed: ${file.name}${file.message ? ` — ${firstLine(file.message)}` : ''}`)
    }
  }
  return { passed, failed, skipped }
}

/** Every test of a Playwright json report as `file:line title` with its outcome. */
function* playwrightTests(suites) {
  for (const suite of suites) {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        yield { spec: `${spec.file}:${spec.line} ${spec.title}`, status: test.status }
    yield* playwrightTests(suite.suites ?? [])
  }
}

function countPlaywright(report, notes) {
  const stats = report.stats ?? {}
  const passed = (stats.expected ?? 0) + (stats.flaky ?? 0)
  let failed = stats.unexpected ?? 0
  const skipped = stats.skipped ?? 0
  if (stats.flaky) notes.push(`${stats.flaky} flaky (passed on retry)`)
  for (const { spec, status } of playwrightTests(report.suites ?? []))
    if (status === 'unexpected' || status === 'flaky') notes.push(`${status}: ${spec}`)
  const errors = report.errors ?? []
  for (const error of errors) notes.push(`error: ${firstLine(error.message)}`)
  if (errors.length > 0 && failed === 0) failed = 1
  return { passed, failed, skipped }
}

function summarizeSuite({ name, kind, exitCode, seconds, file }) {
  const notes = []
  let counts = { passed: 0, failed: 0, skipped: 0 }
  if (kind === 'status') {
    counts = exitCode === 0 ? { passed: 1, failed: 0, skipped: 0 } : { passed: 0, failed: 1, skipped: 0 }
  } else {
    const { report, error } = readReport(file)
    if (error) notes.push(error)
    else if (kind === 'vitest') counts = countVitest(report, notes)
    else if (kind === 'playwright') counts = countPlaywright(report, notes)
    else notes.push(`unknown suite kind "${kind}"`)
  }
  if (exitCode !== 0) notes.push(`exited with code ${exitCode}`)
  if (kind !== 'status' && counts.passed + counts.failed === 0) {
    notes.push('ran no tests')
    counts.failed = Math.max(counts.failed, 1)
  }
  if (exitCode !== 0 && counts.failed === 0) counts.failed = 1
  return { name, seconds, ...counts, ok: counts.failed === 0 && exitCode === 0, notes }
}

function parseManifest(text) {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [name = '?', kind = 'status', exitCode = '1', seconds = '0', file = ''] = line.split('\t')
      return { name, kind, exitCode: Number(exitCode), seconds: Number(seconds), file }
    })
}

function formatSummaryLine(suites) {
  const sum = (key) => suites.reduce((total, suite) => total + suite[key], 0)
  const skipped = sum('skipped')
  return `tests: ${sum('passed')} passed, ${sum('failed')} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`
}

function main() {
  const manifestPath = process.argv[2]
  if (!manifestPath) {
    console.error('usage: node scripts/summarize-tests.mjs <manifest.tsv>')
    process.exit(2)
  }
  const suites = parseManifest(readFileSync(manifestPath, 'utf8')).map(summarizeSuite)
  if (suites.length === 0) {
    console.log('no suites ran')
    console.log('tests: 0 passed, 1 failed')
    process.exit(1)
  }
  const width = Math.max(5, ...suites.map((suite) => suite.name.length))
  const pad = (value, size) => String(value).padStart(size)
  console.log(`${'suite'.padEnd(width)}  result  passed  failed  skipped    time`)
  for (const suite of suites) {
    console.log(
      `${suite.name.padEnd(width)}  ${(suite.ok ? 'ok' : 'FAILED').padEnd(6)}  ${pad(suite.passed, 6)}  ` +
        `${pad(suite.failed, 6)}  ${pad(suite.skipped, 7)}  ${pad(`${suite.seconds}s`, 6)}`,
    )
    for (const note of suite.notes) console.log(`${' '.repeat(width)}  - ${note}`)
  }
  console.log(formatSummaryLine(suites))
  process.exit(suites.every((suite) => suite.ok) ? 0 : 1)
}

main()
