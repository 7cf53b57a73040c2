import { ITEM_SEARCH_TEXT_MAX, type TItemSort, type TItemState } from '@circles/shared'
import { Search, X } from 'lucide-react'
import { type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Input, Label } from '@/components/ui/input'
import { Select } from '@/components/ui/select'
import { cleared, isFiltered, type ItemSearchState } from '../lib/item-search'

/** How long typing rests before the list follows (the Enter key does not wait). */
const TYPING_PAUSE_MS = 300

export interface ItemSearchBarProps {
  state: ItemSearchState
  /** A new state for the URL; `replace` while typing, so Back skips the keystrokes. */
  onChange(next: ItemSearchState, options?: { replace?: boolean }): void
  /** /items: the caller's circles for the circle filter, and 'Held by me' as the default holder. */
  circles?: { id: string; name: string }[]
  /** Members to filter by (a circle's members), besides 'me' and 'anyone'. */
  members: { id: string; name: string }[]
  me: string | undefined
  /** Every match; undefined while the first answer is on its way. */
  total: number | undefined
}

const STATES: TItemState[] = ['available', 'pending', 'handed-over']
const SORTS: TItemSort[] = ['newest', 'name', 'recent-handover']

/**
 * Search, filters and order of an items list (issue 23): a labelled search field, a select per filter
 * and one for the order, 'Clear filters', and the number of results in a polite live region.
 */
export function ItemSearchBar({ state, onChange, circles, members, me, total }: ItemSearchBarProps) {
  const { t } = useTranslation('items')
  const id = useId()
  const onMine = circles !== undefined
  const [text, setText] = useState(state.q)
  // The URL changed under the field (Back, a link, Clear filters): the field shows it.
  const lastQ = useRef(state.q)
  useEffect(() => {
    if (state.q !== lastQ.current) {
      lastQ.current = state.q
      setText(state.q)
    }
  }, [state.q])
  // The typing pause's write. A filter picked meanwhile carries the text itself and cancels it: the
  // pause's write would otherwise land after the filter's, from the state before it, and undo it.
  const typing = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => {
    if (text.trim() === state.q.trim()) return
    typing.current = setTimeout(() => {
      lastQ.current = text
      onChange({ ...state, q: text }, { replace: true })
    }, TYPING_PAUSE_MS)
    return () => clearTimeout(typing.current)
  }, [text, state, onChange])

  const set = (patch: Partial<ItemSearchState>) => {
    clearTimeout(typing.current)
    lastQ.current = text
    onChange({ ...state, q: text, ...patch })
  }
  const filtered = isFiltered({ ...state, q: text })
  const status = useSettledText(
    total === undefined
      ? undefined
      : filtered
        ? t('search.matches', { count: total })
        : t('search.count', { count: total }),
  )
  const others = members.filter((m) => m.id !== me)
  const showLoan = state.state === 'on-loan'

  return (
    <form
      role="search"
      aria-label={t('search.region')}
      className="flex flex-col gap-3 rounded-lg border border-border bg-surface p-4 shadow-xs"
      onSubmit={(event) => {
        event.preventDefault()
        lastQ.current = text
        set({})
      }}
    >
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-q`}>{t('search.label')}</Label>
        <div className="relative">
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute start-3 top-1/2 size-4 -translate-y-1/2 text-fg-subtle"
          />
          <Input
            id={`${id}-q`}
            type="search"
            name="q"
            value={text}
            maxLength={ITEM_SEARCH_TEXT_MAX}
            placeholder={t('search.placeholder')}
            aria-describedby={`${id}-status`}
            className="ps-9"
            onChange={(event) => setText(event.target.value)}
          />
        </div>
      </div>
      <div className={`grid grid-cols-2 gap-3 ${onMine ? 'lg:grid-cols-4' : 'lg:grid-cols-3'}`}>
        {onMine ? (
          <Field id={`${id}-circle`} label={t('search.circle')}>
            <Select
              id={`${id}-circle`}
              value={state.circle}
              onChange={(event) => set({ circle: event.target.value, holder: onlyGeneral(state.holder) })}
            >
              <option value="">{t('search.allCircles')}</option>
              {circles.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </Select>
          </Field>
        ) : null}
        <Field id={`${id}-holder`} label={t('search.holder')}>
          <Select
            id={`${id}-holder`}
            value={state.holder}
            onChange={(event) => set({ holder: event.target.value })}
          >
            {onMine ? (
              <>
                <option value="">{t('search.holderMe')}</option>
                <option value="all">{t('search.holderAnyone')}</option>
              </>
            ) : (
              <>
                <option value="">{t('search.holderAnyone')}</option>
                <option value="me">{t('search.holderMe')}</option>
              </>
            )}
            {others.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
            {isMemberId(state.holder) && !others.some((m) => m.id === state.holder) ? (
              <option value={state.holder}>{t('search.holderOther')}</option>
            ) : null}
          </Select>
        </Field>
        <Field id={`${id}-state`} label={t('search.state')}>
          <Select
            id={`${id}-state`}
            value={state.state}
            onChange={(event) => set({ state: event.target.value as ItemSearchState['state'] })}
          >
            <option value="">{t('search.anyState')}</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {t(`search.states.${s}`)}
              </option>
            ))}
            {showLoan ? <option value="on-loan">{t('search.states.on-loan')}</option> : null}
          </Select>
        </Field>
        <Field id={`${id}-sort`} label={t('search.sort')} wide>
          <Select
            id={`${id}-sort`}
            value={state.sort}
            onChange={(event) => set({ sort: event.target.value as TItemSort })}
          >
            {SORTS.map((s) => (
              <option key={s} value={s}>
                {t(`search.sorts.${s}`)}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <div className="flex min-h-8 flex-wrap items-center justify-between gap-2">
        <p id={`${id}-status`} role="status" className="text-sm text-fg-muted">
          {status}
        </p>
        {filtered ? (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            icon={<X aria-hidden="true" />}
            onClick={() => {
              lastQ.current = ''
              setText('')
              onChange(cleared(state))
            }}
          >
            {t('search.clear')}
          </Button>
        ) : null}
      </div>
    </form>
  )
}

function Field({
  id,
  label,
  wide = false,
  children,
}: {
  id: string
  label: string
  /** The whole row on phones (the order's longer German names fit). */
  wide?: boolean
  children: ReactNode
}) {
  return (
    <div className={`flex min-w-0 flex-col gap-1.5 ${wide ? 'col-span-2 lg:col-span-1' : ''}`}>
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  )
}

const isMemberId = (holder: string) => holder !== '' && holder !== 'me' && holder !== 'all'
/** A member picked in one circle is no filter in another: only 'me' and 'anyone' carry over. */
const onlyGeneral = (holder: string) => (isMemberId(holder) ? '' : holder)

/** The last text that was settled: the live region changes once per answer, not to blank in between. */
function useSettledText(text: string | undefined) {
  const [shown, setShown] = useState(text)
  if (text !== undefined && text !== shown) setShown(text)
  return text ?? shown
}
