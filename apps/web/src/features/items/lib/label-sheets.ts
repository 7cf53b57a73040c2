import { ITEM_CODE_PATH } from '@circles/shared'

/**
 * Label sheets (issue 27, docs/decisions/0052): the common self-adhesive sheets for A4 and US Letter,
 * measured as their makers give them. Every length is in the sheet's own unit (mm or in), so the print
 * stylesheet places the labels in physical units and they land on the die-cut labels.
 */
export type LabelSheetId = 'a4-3x8' | 'a4-2x7' | 'letter-3x10' | 'letter-2x5'

export interface LabelSheet {
  id: LabelSheetId
  paper: 'A4' | 'Letter'
  unit: 'mm' | 'in'
  page: { width: number; height: number }
  columns: number
  rows: number
  label: { width: number; height: number }
  /** From the page's top and left edge to the first label. */
  margin: { top: number; left: number }
  gap: { column: number; row: number }
}

export const LABEL_SHEETS: readonly LabelSheet[] = [
  {
    // 24 labels, no margins (e.g. Avery 3474, Herma 4453).
    id: 'a4-3x8',
    paper: 'A4',
    unit: 'mm',
    page: { width: 210, height: 297 },
    columns: 3,
    rows: 8,
    label: { width: 70, height: 37 },
    margin: { top: 0.5, left: 0 },
    gap: { column: 0, row: 0 },
  },
  {
    // 14 labels (Avery L7163).
    id: 'a4-2x7',
    paper: 'A4',
    unit: 'mm',
    page: { width: 210, height: 297 },
    columns: 2,
    rows: 7,
    label: { width: 99.1, height: 38.1 },
    margin: { top: 15.15, left: 4.65 },
    gap: { column: 2.5, row: 0 },
  },
  {
    // 30 address labels (Avery 5160).
    id: 'letter-3x10',
    paper: 'Letter',
    unit: 'in',
    page: { width: 8.5, height: 11 },
    columns: 3,
    rows: 10,
    label: { width: 2.625, height: 1 },
    margin: { top: 0.5, left: 0.1875 },
    gap: { column: 0.125, row: 0 },
  },
  {
    // 10 shipping labels (Avery 5163).
    id: 'letter-2x5',
    paper: 'Letter',
    unit: 'in',
    page: { width: 8.5, height: 11 },
    columns: 2,
    rows: 5,
    label: { width: 4, height: 2 },
    margin: { top: 0.5, left: 0.15625 },
    gap: { column: 0.1875, row: 0 },
  },
]

export const DEFAULT_SHEET = LABEL_SHEETS[0]!

/** The sheet the URL names (`?sheet=`), else the default. */
export function labelSheet(id: string | null | undefined): LabelSheet {
  return LABEL_SHEETS.find((s) => s.id === id) ?? DEFAULT_SHEET
}

/** A length in the sheet's unit, as CSS. */
export const length = (sheet: LabelSheet, value: number) => `${value}${sheet.unit}`

/** The labels split into the sheet's pages. */
export function pagesOf<T>(sheet: LabelSheet, labels: readonly T[]): T[][] {
  const perPage = sheet.columns * sheet.rows
  const pages: T[][] = []
  for (let i = 0; i < labels.length; i += perPage) pages.push(labels.slice(i, i + perPage))
  return pages
}

/** What a label's QR code holds: the app's link for the code, no secret (docs/decisions/0052). */
export function labelUrl(origin: string, code: string): string {
  return `${origin}${ITEM_CODE_PATH}${code}`
}
