import { render, screen } from '@/test/testing-library'
import { Suspense } from 'react'
import { describe, expect, it } from 'vitest'
import { lazyPart, loadParts } from './lazy-part'

const part = (name: string) => {
  let loads = 0
  const Part = lazyPart(name, async () => {
    loads++
    return ({ label }: { label: string }) => <button type="button">{label}</button>
  })
  return { Part, loads: () => loads }
}

describe('a lazy part (lib/lazy-part.ts)', () => {
  it('loaded beforehand, renders at once: nothing suspends', async () => {
    const { Part, loads } = part('answer-form')
    await loadParts(['answer-form', 'not-a-part'])
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Part label="Accept" />
      </Suspense>,
    )
    // Synchronously, in the first render.
    expect(screen.getByRole('button', { name: 'Accept' })).toBeTruthy()
    expect(screen.queryByText('Loading')).toBeNull()
    await loadParts(['answer-form'])
    expect(loads()).toBe(1)
  })

  it('not loaded, suspends like any lazy component, then renders', async () => {
    const { Part, loads } = part('reject-form')
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Part label="Reject" />
      </Suspense>,
    )
    expect(screen.getByText('Loading')).toBeTruthy()
    expect(await screen.findByRole('button', { name: 'Reject' })).toBeTruthy()
    expect(loads()).toBe(1)
  })
})
