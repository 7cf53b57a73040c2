import type { TItem } from '@circles/shared'
import { QRCodeSVG } from 'qrcode.react'
import { useTranslation } from 'react-i18next'
import { pageOrigin } from '@/lib/page-origin'
import { labelUrl } from '../../lib/label-sheets'

/**
 * One label (issue 27): the QR code of `{origin}/i/<code>`, the item's name and its short code under it.
 * `size` is the label's height as CSS (the QR code is a square of about that height); the text takes the
 * rest of the width. Black on white on screen too: it is what the paper shows.
 */
export function ItemLabel({ item, height }: { item: Pick<TItem, 'name' | 'code'>; height: string }) {
  const { t } = useTranslation('items')
  const url = labelUrl(pageOrigin(), item.code)
  return (
    <div
      data-testid="item-label"
      data-code={item.code}
      className="flex h-full min-w-0 items-center gap-[0.08in] overflow-hidden p-[0.06in]"
      style={{ backgroundColor: '#fff', color: '#000' }}
    >
      <QRCodeSVG
        value={url}
        level="M"
        marginSize={2}
        title={t('labels.qrTitle', { name: item.name })}
        style={{ height: `calc(${height} - 0.12in)`, width: 'auto', aspectRatio: '1', flex: 'none' }}
      />
      <div className="flex min-w-0 flex-col gap-[0.04in] leading-tight">
        <span className="line-clamp-2 text-[10pt] font-semibold break-words">{item.name}</span>
        <span className="font-mono text-[11pt] tracking-[0.08em]">{item.code}</span>
      </div>
    </div>
  )
}
