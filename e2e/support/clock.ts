// Timing what shows for a while and then goes (success banners, notices, toasts) on the page's own clock
// (Playwright's page.clock), not in real seconds: exact, and as fast on a busy machine as on an idle one.
import { expect, type Locator, type Page } from '@playwright/test'

/** Fake milliseconds per step while waiting for the thing to show: the page's own timers still run. */
const STEP_MS = 10
/**
 * How late a timer started by an effect can begin: Preact runs effects after the next frame, or after
 * its 35 ms fallback timer when no frame comes (docs/decisions/0062), so what shows at once goes at most
 * this much after `shownMs`.
 */
const EFFECT_DELAY_MS = 35

/**
 * Install before the page loads (`page.clock.install()` in the test's first lines); the clock runs
 * naturally until this. `act` starts the thing (a click); with the clock paused, it runs in small steps
 * until `locator` shows, so it is known to have started no earlier than the pause and no later than the
 * fake time run so far; `whileShown` runs then, with no time passing for the page. Then the clock runs to 1 ms before `shownMs` after the pause: still there; and
 * on to `shownMs` after it showed (plus `exitMs` for a closing animation, and one effect's delay): gone. The clock runs naturally
 * again afterwards.
 */
export async function expectShownFor(
  page: Page,
  locator: Locator,
  shownMs: number,
  act: () => Promise<void>,
  {
    exitMs = 0,
    whileShown,
  }: {
    /** A closing animation's time after `shownMs`, before it is gone. */
    exitMs?: number
    /**
     * Quick checks while it shows, the clock still paused: nothing that needs the page's timers (a
     * refetch, axe) can finish then.
     */
    whileShown?: () => Promise<void>
  } = {},
) {
  const now = await page.evaluate(() => Date.now())
  await page.clock.pauseAt(now + 1_000)
  await act()
  let ran = 0
  while (!(await locator.isVisible())) {
    if (ran > shownMs / 2) throw new Error(`not shown within ${ran} ms of the page's clock: ${locator}`)
    await page.clock.runFor(STEP_MS)
    ran += STEP_MS
  }
  await whileShown?.()
  await page.clock.runFor(shownMs - 1 - ran)
  await expect(locator).toBeVisible()
  await page.clock.runFor(1 + ran + exitMs + EFFECT_DELAY_MS)
  await expect(locator).toBeHidden()
  await page.clock.resume()
}
