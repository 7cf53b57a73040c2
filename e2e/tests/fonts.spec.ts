import { expect, test, type Page } from '@playwright/test'

/** The font Chromium actually drew the element's text with (not the CSS wish list). */
async function renderedFont(page: Page, selector: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('DOM.enable')
  await cdp.send('CSS.enable')
  const { root } = await cdp.send('DOM.getDocument')
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector })
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId })
  return fonts.map((font) => font.familyName)
}

test('experiment', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: Number(process.env.LAT ?? 40),
    downloadThroughput: Number(process.env.DL ?? 1_250_000),
    uploadThroughput: 500_000,
  })
  await page.goto('/')
  await page.waitForLoadState('load')
  console.log(await renderedFont(page, 'h1'))
})
