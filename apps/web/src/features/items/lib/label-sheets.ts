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

/** How many labels one sheet holds. */
export const labelsPerSheet = (sheet: LabelSheet) => sheet.columns * sheet.rows

/**
 * The first sheet's label to start at (`?start=`, 1-based), so a sheet with labels already used can go
 * through the printer again; anything else starts at the first.
 */
export function startLabel(sheet: LabelSheet, value: string | null | undefined): number {
  const n = Number(value)
  return Number.isInteger(n) && n >= 1 && n <= labelsPerSheet(sheet) ? n : 1
}

/** A position on a sheet, row and column from 1, reading left to right. */
export function labelPosition(sheet: LabelSheet, n: number): { row: number; column: number } {
  return { row: Math.floor((n - 1) / sheet.columns) + 1, column: ((n - 1) % sheet.columns) + 1 }
}

/**
 * The labels split into the sheet's pages, the first page starting at label `start`: the cells before
 * it are `null` (left blank, as they are already used).
 */
export function pagesOf<T>(sheet: LabelSheet, labels: readonly T[], start = 1): (T | null)[][] {
  const perPage = labelsPerSheet(sheet)
  const cells: (T | null)[] = [
    ...Array<null>(Math.min(Math.max(start, 1), perPage) - 1).fill(null),
    ...labels,
  ]
  const pages: (T | null)[][] = []
  for (let i = 0; i < cells.length; i += perPage) pages.push(cells.slice(i, i + perPage))
  return pages
}

/** What a label's QR code holds: the app's link for the code, no secret (docs/decisions/0052). */
export function labelUrl(origin: string, code: string): string {
  return `${origin}${ITEM_CODE_PATH}${code}`
}
