import { describe, expect, it } from 'vitest'
import { inert } from './screen-pages'

describe('inert', () => {
  it('disables and marks the controls the app shows enabled, and leaves the disabled ones as they are', () => {
    const html =
      '<form><button class="a" aria-label="x > y">Go</button><input type="text" value="a&quot;b"/>' +
      '<button disabled="" class="c">Wait</button><select name="s" disabled><option>1</option></select>' +
      '<textarea>t</textarea><buttons></buttons></form>'
    expect(inert(html)).toBe(
      '<form><button disabled data-inert="" class="a" aria-label="x > y">Go</button>' +
        '<input disabled data-inert="" type="text" value="a&quot;b"/>' +
        '<button disabled="" class="c">Wait</button><select name="s" disabled><option>1</option></select>' +
        '<textarea disabled data-inert="">t</textarea><buttons></buttons></form>',
    )
  })
})
