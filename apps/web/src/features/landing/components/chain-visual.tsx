import { Link2, ShieldCheck } from 'lucide-react'
import { useTranslation } from 'react-i18next'

const BLOCKS = [
  { number: 40, hash: '5d21e7a0…91c3', previous: '0be4f1d2…6a7e' },
  { number: 41, hash: '9b1e3c57…c2f0', previous: '5d21e7a0…91c3' },
  { number: 42, hash: 'a3f9c2e1…7b04', previous: '9b1e3c57…c2f0' },
] as const

/**
 * Three ledger blocks, each naming the hash of the one before: the idea behind "tamper-evident" in one
 * picture. Decoration: the feature text beside it says the same in words.
 */
export function ChainVisual() {
  const { t } = useTranslation('landing')
  return (
    <div aria-hidden="true" className="flex flex-col gap-4">
      <ol className="flex flex-col gap-2 sm:flex-row sm:items-stretch sm:gap-0">
        {BLOCKS.map(({ number, hash, previous }, index) => (
          <li
            key={number}
            className={`flex-col items-center sm:flex sm:flex-1 sm:flex-row ${index === 0 ? 'hidden' : 'flex'}`}
          >
            {index > 0 ? (
              <span
                className={`h-6 items-center justify-center text-fg-subtle sm:flex sm:h-auto sm:w-6 ${index === 1 ? 'hidden' : 'flex'}`}
              >
                <Link2 className="size-4 rotate-90 sm:rotate-0" />
              </span>
            ) : null}
            <div
              className={`flex w-full flex-col gap-2 rounded-md border bg-surface p-3 text-xs ${
                index === BLOCKS.length - 1 ? 'border-accent/40 shadow-sm' : 'border-border'
              }`}
            >
              <span className="font-semibold text-fg">{t('features.chain.block', { number })}</span>
              <code className="truncate text-accent-text">{hash}</code>
              <span className="flex flex-col gap-0.5 text-fg-subtle">
                <span>{t('features.chain.previous')}</span>
                <code className="truncate">{previous}</code>
              </span>
            </div>
          </li>
        ))}
      </ol>
      <span className="inline-flex items-center gap-1.5 self-start rounded-full bg-success-soft px-2.5 py-1 text-xs font-medium text-success">
        <ShieldCheck className="size-3.5" />
        {t('features.chain.intact')}
      </span>
    </div>
  )
}
