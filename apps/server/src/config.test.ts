import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config'
import { vapidFromSecret } from './lib/push/vapid'

describe('loadConfig', () => {
  it('runs with no environment at all', () => {
    const config = loadConfig({})
    expect(config.port).toBe(3000)
    expect(config.publicUrl).toBe('http://localhost:3000')
    expect(config.databaseUrl).toBeUndefined()
    expect(config.rateLimits).toBe(true)
    expect(config.dataDir.endsWith('data')).toBe(true)
  })

  it('has deadlines for slow clients and a bound on sockets per account, each settable', () => {
    expect(loadConfig({}).timeouts).toEqual({
      headersTimeoutMs: 10_000,
      bodyTimeoutMs: 20_000,
      bodyMinBytesPerSecond: 500,
      requestTimeoutMs: 120_000,
      idleTimeoutMs: 60_000,
      keepAliveTimeoutMs: 72_000,
    })
    expect(loadConfig({}).socketsPerAccount).toBe(50)
    const set = loadConfig({
      HEADERS_TIMEOUT_MS: '2000',
      REQUEST_TIMEOUT_MS: '1000',
      SOCKETS_PER_ACCOUNT: '3',
    })
    // Node refuses a header deadline beyond the whole request's.
    expect(set.timeouts).toMatchObject({ headersTimeoutMs: 2000, requestTimeoutMs: 2000 })
    expect(set.socketsPerAccount).toBe(3)
    expect(() => loadConfig({ BODY_TIMEOUT_MS: '10' })).toThrow(/BODY_TIMEOUT_MS:/)
  })

  it('derives PUBLIC_URL from PORT and strips a trailing slash when given', () => {
    expect(loadConfig({ PORT: '4000' }).publicUrl).toBe('http://localhost:4000')
    expect(loadConfig({ PUBLIC_URL: 'https://circles.example/' }).publicUrl).toBe('https://circles.example')
  })

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PUBLIC_URL', 'ftp://x'],
    ['DATABASE_URL', 'mysql://x'],
    ['SMTP_URL', 'http://x'],
    ['JWT_SECRET', 'short'],
    ['LOG_LEVEL', 'loud'],
    ['CONTACT_EMAIL', 'nope'],
    ['TRUST_PROXY', 'maybe?'],
    ['METRICS_PORT', 'nine'],
    ['METRICS_PORT', '65536'],
    ['METRICS_PORT', '-1'],
    ['METRICS_TOKEN', 'short'],
    ['METRICS_TOKEN', 'has spaces in the middle of it'],
    ['SHUTDOWN_DRAIN_MS', '-1'],
    ['SHUTDOWN_DRAIN_MS', 'soon'],
    ['SHUTDOWN_TIMEOUT_MS', '500'],
    ['SHUTDOWN_TIMEOUT_MS', '1.5'],
    ['LEDGER_WITNESSES', 'https://w.example'],
    [
      'LEDGER_WITNESSES',
      'ftp://w.example remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2',
    ],
    [
      'LEDGER_WITNESSES',
      'https://w.example remora.n621.de+da77ade8+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2',
    ],
  ])('rejects a bad %s and names it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError)
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`))
  })

  it('reads the outside witnesses: URL and cosigner key, comma-separated (issue 29)', () => {
    const remora = 'remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2'
    expect(loadConfig({}).ledgerWitnesses.witnesses).toEqual([])
    const config = loadConfig({
      LEDGER_WITNESSES: `https://w.example/sub/ ${remora}, http://127.0.0.1:9 ${remora}`,
    })
    expect(config.ledgerWitnesses.witnesses).toEqual([
      { url: 'https://w.example/sub', verifierKey: remora },
      { url: 'http://127.0.0.1:9', verifierKey: remora },
    ])
  })

  it('parses TRUST_PROXY forms', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true)
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2)
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.2' }).trustProxy).toBe('10.0.0.1, 10.0.0.2')
  })

  it('keeps metrics off unless a port or token is given, on loopback unless told', () => {
    expect(loadConfig({}).metrics).toEqual({ port: undefined, host: '127.0.0.1', token: undefined })
    expect(
      loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: 'a'.repeat(16) }).metrics,
    ).toEqual({ port: 9464, host: '0.0.0.0', token: 'a'.repeat(16) })
    expect(() => loadConfig({ PORT: '4000', METRICS_PORT: '4000' })).toThrow(
      /METRICS_PORT: must differ from PORT/,
    )
  })

  it('has a drain time (none by default) and a bound on shutdown, each settable', () => {
    expect(loadConfig({})).toMatchObject({ shutdownDrainMs: 0, shutdownTimeoutMs: 10_000 })
    expect(loadConfig({ SHUTDOWN_DRAIN_MS: '5000', SHUTDOWN_TIMEOUT_MS: '30000' })).toMatchObject({
      shutdownDrainMs: 5000,
      shutdownTimeoutMs: 30_000,
    })
  })

  it('sizes the embedded database page cache by PGLITE_SHARED_BUFFERS_MB, 32 MB by default', () => {
    expect(loadConfig({}).pgliteSharedBuffersMb).toBe(32)
    expect(loadConfig({ PGLITE_SHARED_BUFFERS_MB: '128' }).pgliteSharedBuffersMb).toBe(128)
    for (const bad of ['0', '2048', '16.5', '32MB'])
      expect(() => loadConfig({ PGLITE_SHARED_BUFFERS_MB: bad })).toThrow(/PGLITE_SHARED_BUFFERS_MB:/)
  })

  it('reads the loan reminder scan interval and offsets (issue 26), 5 minutes and 1d,0d by default', () => {
    expect(loadConfig({}).loanReminders).toEqual({ scanIntervalMs: 300_000, offsets: ['1d', '0d'] })
    expect(
      loadConfig({ LOAN_REMINDER_SCAN_INTERVAL: '30s', LOAN_REMINDER_OFFSETS: ' 2d, 1d ,0d,3h' })
        .loanReminders,
    ).toEqual({ scanIntervalMs: 30_000, offsets: ['2d', '1d', '0d', '3h'] })
    expect(loadConfig({ LOAN_REMINDER_SCAN_INTERVAL: '1h' }).loanReminders.scanIntervalMs).toBe(3_600_000)
    for (const bad of ['5', '0s', '999ms', '25h', '5 m', '-1m', 'soon'])
      expect(() => loadConfig({ LOAN_REMINDER_SCAN_INTERVAL: bad })).toThrow(/LOAN_REMINDER_SCAN_INTERVAL:/)
    for (const bad of ['1', '1d;0d', '1w', '0h', '15d', '73h', '1d,', '1d,1h,2h,3h,4h,5h', '-1d'])
      expect(() => loadConfig({ LOAN_REMINDER_OFFSETS: bad })).toThrow(/LOAN_REMINDER_OFFSETS:/)
  })
  it('takes the VAPID pair only whole and matching (issue 27), else none; the subject defaults to CONTACT_EMAIL', () => {
    const pair = vapidFromSecret('a test secret')
    expect(loadConfig({}).push).toEqual({
      vapid: undefined,
      subject: 'mailto:hello@circles.example',
      timeoutMs: 10_000,
    })
    const given = loadConfig({
      VAPID_PUBLIC_KEY: pair.publicKey,
      VAPID_PRIVATE_KEY: pair.privateKey,
      VAPID_SUBJECT: 'https://circles.example/contact',
      PUSH_TIMEOUT_MS: '2000',
    }).push
    expect(given).toEqual({ vapid: pair, subject: 'https://circles.example/contact', timeoutMs: 2000 })
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: pair.publicKey })).toThrow(/together/)
    const other = vapidFromSecret('another secret')
    expect(() =>
      loadConfig({ VAPID_PUBLIC_KEY: other.publicKey, VAPID_PRIVATE_KEY: pair.privateKey }),
    ).toThrow(/VAPID_PUBLIC_KEY: is not the public key/)
    expect(() => loadConfig({ VAPID_PRIVATE_KEY: 'x', VAPID_PUBLIC_KEY: pair.publicKey })).toThrow(
      /VAPID_PRIVATE_KEY/,
    )
    expect(() => loadConfig({ VAPID_SUBJECT: 'someone' })).toThrow(/VAPID_SUBJECT/)
    // The same secret gives the same pair (two servers on one DATA_DIR agree).
    expect(vapidFromSecret('a test secret')).toEqual(pair)
  })
})
