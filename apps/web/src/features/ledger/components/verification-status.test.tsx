import { screen } from '@/test/testing-library'
import { describe, expect, it } from 'vitest'
import { renderPages } from '@/test/render-pages'
import type { CircleCheck } from '@/lib/ledger-verification/use-ledger-verification'
import type { CircleVerification } from '@/lib/ledger-verification/verify-circle'
import { VerificationStatus } from './verification-status'

const CIRCLE = '11111111-1111-4111-8111-111111111111'

function splitView(
  kind: 'other-root' | 'inconsistent',
  who: { memberName?: string; ownAccount?: boolean } = {},
): CircleVerification {
  return {
    state: 'alarm',
    circleId: CIRCLE,
    reason: 'split-view',
    seenSize: 3,
    size: 3,
    evidence: {
      kind: 'circles-ledger-evidence',
      version: 1,
      circleId: CIRCLE,
      reason: 'split-view',
      detectedAt: '2026-11-27T05:00:00.000Z',
      keys: [],
      remembered: null,
      received: 'note',
      splitView: {
        kind,
        size: 3,
        witness: {
          userId: 'ida',
          name: 'circles.example/witness/ida/d',
          verifierKey: 'k',
          ...(who.memberName === undefined ? {} : { memberName: who.memberName }),
        } as { userId: string; memberName: string; name: string; verifierKey: string },
        ...(who.ownAccount === undefined ? {} : { ownAccount: who.ownAccount }),
        line: '— circles.example/witness/ida/d AAAA',
        witnesses: ['k'],
      },
    },
  }
}

const check = (result: CircleVerification): CircleCheck => ({
  circleId: CIRCLE,
  circleName: 'Linden Street',
  status: 'done',
  result,
  retry: () => undefined,
})

const render = (result: CircleVerification, language: 'en' | 'de' = 'en') =>
  renderPages({ '/': () => <VerificationStatus checks={[check(result)]} /> }, '/', {
    namespaces: ['ledger'],
    language,
  })

describe('the split-view alarm (issue 29)', () => {
  it('says another member’s device cosigned another tree of the same size, with the evidence to download', async () => {
    await render(splitView('other-root'))
    const alarm = await screen.findByRole('alert')
    expect(alarm.textContent).toContain('Members are shown different histories')
    expect(alarm.textContent).toContain(
      'cosigned a checkpoint of 3 blocks of Linden Street with other contents than the one this device checked',
    )
    expect(screen.getByRole('button', { name: 'Download evidence' })).toBeTruthy()
    expect(screen.queryByText('Verified on this device')).toBeNull()
  })

  it('says the other device cosigned a checkpoint that does not extend this device’s, in German too', async () => {
    const english = await render(splitView('inconsistent'))
    expect((await screen.findByRole('alert')).textContent).toContain(
      'which does not extend the 3 blocks this device saw before',
    )
    english.unmount()
    await render(splitView('inconsistent'), 'de')
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Mitglieder bekommen verschiedene Verläufe zu sehen',
    )
  })

  it('names the member whose device cosigned the other history (docs/decisions/0064)', async () => {
    const english = await render(splitView('other-root', { memberName: 'Anna', ownAccount: false }))
    const alarm = await screen.findByRole('alert')
    expect(alarm.textContent).toContain('Members are shown different histories')
    expect(alarm.textContent).toContain("Anna's device cosigned a checkpoint of 3 blocks of Linden Street")
    english.unmount()
    await render(splitView('inconsistent', { memberName: 'Anna', ownAccount: false }), 'de')
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Das Gerät von Anna hat den jetzt erhaltenen Prüfpunkt mit 3 Blöcken',
    )
  })

  it('calls a device of the same account "your other device", not another member’s', async () => {
    const english = await render(splitView('other-root', { memberName: 'Ida', ownAccount: true }))
    const alarm = await screen.findByRole('alert')
    expect(alarm.textContent).toContain('Your devices are shown different histories')
    expect(alarm.textContent).toContain(
      'Your other device cosigned a checkpoint of 3 blocks of Linden Street',
    )
    expect(alarm.textContent).not.toContain('Ida')
    expect(alarm.textContent).not.toContain("member's device")
    expect(alarm.textContent).toContain('on both of your devices')
    english.unmount()
    await render(splitView('inconsistent', { memberName: 'Ida', ownAccount: true }), 'de')
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Dein anderes Gerät hat den jetzt erhaltenen',
    )
  })
})
