import { ZCircleDetailResponse } from '@circles/shared'
import { useQuery } from '@tanstack/react-query'
import { ArrowLeft, Printer } from 'lucide-react'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, Navigate, useParams, useSearchParams } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Select } from '@/components/ui/select'
import { Spinner } from '@/components/ui/spinner'
import { api } from '@/lib/api-client'
import { useDocumentTitle } from '@/lib/use-document-title'
import { useCircleItems } from '../api/items'
import { ItemLabel } from '../components/labels/item-label'
import { LabelItemChooser } from '../components/labels/label-item-chooser'
import {
  LABEL_SHEETS,
  type LabelSheet,
  labelPosition,
  labelSheet,
  labelsPerSheet,
  length,
  pagesOf,
  startLabel,
} from '../lib/label-sheets'

/**
 * /circles/:circleId/labels (issue 27): a printable sheet of QR labels for the circle's items, on one of
 * the common label sheets (`?sheet=`). The print stylesheet sets the paper (`@page`), places the labels
 * by a CSS grid in millimetres or inches and leaves out everything but the sheets. A sheet with labels
 * already used goes through again from `?start=`; the person may leave items out (not kept in the URL:
 * the list changes as items come and go).
 */
export function LabelsPage() {
  const { circleId = '' } = useParams()
  const { t } = useTranslation('items')
  const [params, setParams] = useSearchParams()
  const sheet = labelSheet(params.get('sheet'))
  const start = startLabel(sheet, params.get('start'))
  const [excluded, setExcluded] = useState<ReadonlySet<string>>(new Set())
  const selectId = useId()
  const startId = useId()
  const setParam = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current)
        for (const [name, value] of Object.entries(changes))
          if (value === null) next.delete(name)
          else next.set(name, value)
        return next
      },
      { replace: true },
    )
  const circle = useQuery({
    queryKey: ['items', 'circle-info', circleId],
    queryFn: ({ signal }) =>
      api
        .get(`/circles/${encodeURIComponent(circleId)}`, ZCircleDetailResponse, { signal })
        .then((a) => a.circle),
    enabled: Boolean(circleId),
  })
  const items = useCircleItems(circleId)
  useDocumentTitle(
    circle.data ? t('labels.documentTitle', { circle: circle.data.name }) : t('labels.loadingTitle'),
  )
  if (!circleId) return <Navigate to="/dashboard" replace />

  const list = items.data ?? []
  const chosen = list.filter((item) => !excluded.has(item.id))
  const pages = pagesOf(sheet, chosen, start)
  let body
  if (items.isPending) body = <Spinner size="lg" label={t('circleItems.loading')} />
  else if (items.isError) body = <Alert tone="error">{t('detail.notFound')}</Alert>
  else if (list.length === 0) body = <p className="text-fg-muted">{t('labels.empty')}</p>
  else if (chosen.length === 0) body = null
  else
    body = (
      <div
        role="region"
        tabIndex={0}
        aria-label={t('labels.preview')}
        className="overflow-x-auto rounded-md bg-surface-2 p-3 print:overflow-visible print:rounded-none print:bg-transparent print:p-0"
      >
        {/* The paper and its margins for the printer; only while this page is open. */}
        <style>{`@page { size: ${sheet.paper === 'A4' ? 'A4' : 'letter'}; margin: 0; }`}</style>
        <div className="flex flex-col gap-4 print:block">
          {pages.map((labels, index) => (
            <SheetPage key={index} sheet={sheet} last={index === pages.length - 1}>
              {labels.map((item, cell) =>
                item ? (
                  <ItemLabel key={item.id} item={item} height={length(sheet, sheet.label.height)} />
                ) : (
                  <div key={`used-${cell}`} data-testid="label-skipped" aria-hidden="true" />
                ),
              )}
            </SheetPage>
          ))}
        </div>
      </div>
    )

  return (
    <main
      id="main-content"
      className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12 print:m-0 print:block print:max-w-none print:p-0"
    >
      <div className="flex flex-col gap-6 print:hidden">
        <Link
          to={`/circle/${circleId}/items`}
          className="-ms-2 inline-flex h-11 items-center gap-1.5 self-start rounded-md px-2 text-sm font-medium text-fg-muted transition-colors hover:bg-surface-2 hover:text-fg sm:h-9"
        >
          <ArrowLeft aria-hidden="true" className="size-4 rtl:rotate-180" />
          {circle.data ? t('labels.back', { circle: circle.data.name }) : t('circleItems.backToPrevious')}
        </Link>
        <header className="flex flex-col gap-1">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">
            {circle.data ? t('labels.title', { circle: circle.data.name }) : t('labels.loadingTitle')}
          </h1>
          <p className="text-fg-muted">{t('labels.intro')}</p>
        </header>
        <div className="flex flex-wrap items-end gap-4">
          <div className="flex min-w-0 flex-col gap-1.5">
            <label htmlFor={selectId} className="text-sm font-medium">
              {t('labels.sheet')}
            </label>
            <Select
              id={selectId}
              value={sheet.id}
              className="w-full sm:w-96"
              onChange={(event) => setParam({ sheet: event.target.value, start: null })}
            >
              {(['A4', 'Letter'] as const).map((paper) => (
                <optgroup key={paper} label={t(`labels.paper.${paper}`)}>
                  {LABEL_SHEETS.filter((s) => s.paper === paper).map((s) => (
                    <option key={s.id} value={s.id}>
                      {t(`labels.sheets.${s.id}`)}
                    </option>
                  ))}
                </optgroup>
              ))}
            </Select>
          </div>
          <div className="flex min-w-0 flex-col gap-1.5">
            <label htmlFor={startId} className="text-sm font-medium">
              {t('labels.start')}
            </label>
            <Select
              id={startId}
              value={String(start)}
              className="w-full sm:w-56"
              onChange={(event) =>
                setParam({ start: event.target.value === '1' ? null : event.target.value })
              }
            >
              {Array.from({ length: labelsPerSheet(sheet) }, (_, index) => (
                <option key={index} value={index + 1}>
                  {t('labels.position', { n: index + 1, ...labelPosition(sheet, index + 1) })}
                </option>
              ))}
            </Select>
          </div>
          <Button
            icon={<Printer aria-hidden="true" />}
            disabled={chosen.length === 0}
            onClick={() => window.print()}
          >
            {t('labels.print')}
          </Button>
        </div>
        {list.length > 0 ? (
          <>
            <LabelItemChooser items={list} excluded={excluded} onChange={setExcluded} />
            <p className="text-sm text-fg-muted" role="status">
              {chosen.length === 0
                ? t('labels.noneChosen')
                : t('labels.count', {
                    count: chosen.length,
                    sheets: t('labels.sheetCount', { count: pages.length }),
                  })}
            </p>
          </>
        ) : null}
      </div>
      {body}
    </main>
  )
}

/** One sheet of paper: the labels on a grid in the sheet's physical unit. */
function SheetPage({
  sheet,
  last,
  children,
}: {
  sheet: LabelSheet
  last: boolean
  children: React.ReactNode
}) {
  const l = (value: number) => length(sheet, value)
  return (
    <div
      data-testid="label-sheet"
      data-sheet={sheet.id}
      className="shrink-0 overflow-hidden shadow-sm print:shadow-none"
      style={{
        boxSizing: 'border-box',
        backgroundColor: '#fff',
        width: l(sheet.page.width),
        // A hair under the paper's height, so rounding never spills a blank page.
        height: `calc(${l(sheet.page.height)} - 0.5mm)`,
        paddingTop: l(sheet.margin.top),
        paddingLeft: l(sheet.margin.left),
        display: 'grid',
        gridTemplateColumns: `repeat(${sheet.columns}, ${l(sheet.label.width)})`,
        gridTemplateRows: `repeat(${sheet.rows}, ${l(sheet.label.height)})`,
        columnGap: l(sheet.gap.column),
        rowGap: l(sheet.gap.row),
        alignContent: 'start',
        breakAfter: last ? 'auto' : 'page',
      }}
    >
      {children}
    </div>
  )
}
