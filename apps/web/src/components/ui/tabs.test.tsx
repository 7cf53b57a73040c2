import { fireEvent, render, screen } from '@/test/testing-library'
import { useState } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { Tabs } from './tabs'

function Three() {
  const [selected, setSelected] = useState<'a' | 'b' | 'c'>('a')
  return (
    <Tabs<'a' | 'b' | 'c'>
      label="Sections"
      selected={selected}
      onSelect={setSelected}
      items={[
        { key: 'a', label: 'Profile Information', panel: <p>A</p> },
        { key: 'b', label: 'Security & Access', panel: <p>B</p> },
        { key: 'c', label: 'Your data', panel: <p>C</p> },
      ]}
    />
  )
}

// jsdom has no scrollIntoView; the test gives it one and takes it away again.
afterEach(() => {
  delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView
})

describe('Tabs', () => {
  it('brings a chosen tab into view (a narrow screen scrolls the list), never on the first render', () => {
    const scrolled: string[] = []
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.textContent ?? '')
    }
    render(<Three />)
    expect(scrolled).toEqual([])
    fireEvent.click(screen.getByRole('tab', { name: 'Your data' }))
    expect(scrolled).toEqual(['Your data'])
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Your data' }), { key: 'Home' })
    expect(scrolled).toEqual(['Your data', 'Profile Information'])
    expect(screen.getByRole('tab', { name: 'Profile Information' }).getAttribute('aria-selected')).toBe(
      'true',
    )
  })
})
