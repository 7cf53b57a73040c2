import type { TBlock } from '@circles/shared'
import { Download } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import type { BlockConditionEvidence } from '@/lib/ledger-verification/condition-evidence'
import type { PhotoCheck } from '@/lib/ledger-verification/use-condition-photos'
import { saveFile } from '../api/log'
import { partyName } from './block-card'

/** The photos and notes that do not check out: what the alarm names and the evidence file carries. */
export function conditionFailures(evidence: BlockConditionEvidence | null, photos: PhotoCheck[]) {
  return {
    photos: photos.flatMap((p) => (p.status === 'mismatch' ? [p] : [])),
    notes: (evidence?.sides ?? []).filter((s) => s.note?.check === 'mismatch'),
  }
}

function downloadEvidence(block: TBlock, failures: ReturnType<typeof conditionFailures>) {
  const detectedAt = new Date().toISOString()
  const evidence = {
    kind: 'circles-condition-evidence',
    version: 1,
    detectedAt,
    block: { id: block.id, height: block.content.height, hash: block.hash, content: block.content },
    photos: failures.photos.map((p) => ({
      side: p.side,
      photo: p.position + 1,
      url: p.url,
      expected: p.expected,
      actual: p.actual,
    })),
    notes: failures.notes.map((s) => ({
      side: s.side,
      note: s.note?.text ?? null,
      noteSalt: block.evidence?.[s.side].noteSalt ?? null,
      expected: block.content.v === 5 ? (block.content.evidence?.[s.side].note ?? null) : null,
    })),
  }
  saveFile(
    `circles-condition-evidence-${block.id}-${detectedAt.replaceAll(':', '-')}.json`,
    `${JSON.stringify(evidence, null, 2)}\n`,
    'application/json',
  )
}

/**
 * The alarm of a block whose condition evidence does not check out (issue 28): a photo served with other
 * bytes than the block recorded, or a note that does not open its commitment. The same kind of alarm as
 * a rewritten block (VerificationStatus), naming each photo and note.
 */
export function ConditionAlarm({
  block,
  evidence,
  photos,
}: {
  block: TBlock
  evidence: BlockConditionEvidence | null
  photos: PhotoCheck[]
}) {
  const { t } = useTranslation('ledger')
  const failures = conditionFailures(evidence, photos)
  if (failures.photos.length === 0 && failures.notes.length === 0) return null
  const height = block.content.height
  return (
    <Alert
      tone="error"
      title={t('condition.alarmTitle')}
      data-testid="condition-alarm"
      action={
        <Button
          size="sm"
          variant="secondary"
          icon={<Download aria-hidden="true" />}
          onClick={() => downloadEvidence(block, failures)}
        >
          {t('device.downloadEvidence')}
        </Button>
      }
    >
      <ul className="flex flex-col gap-0.5">
        {failures.photos.map((p) => (
          <li key={`${p.side}-${p.position}`}>
            {t('condition.alarmPhoto', { name: partyName(block, p.side), number: p.position + 1, height })}
          </li>
        ))}
        {failures.notes.map((s) => (
          <li key={s.side}>{t('condition.alarmNote', { name: partyName(block, s.side), height })}</li>
        ))}
      </ul>
      <p className="mt-1 text-fg-muted">{t('condition.alarmAdvice')}</p>
    </Alert>
  )
}
