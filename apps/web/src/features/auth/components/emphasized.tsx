const MARK = '\u0000'

/**
 * A translated sentence with one value in bold, e.g. "We sent a link to **ann@example.com**." The
 * translation decides where the value goes; `translate` receives a marker to put there.
 */
export function Emphasized({ translate, value }: { translate: (marker: string) => string; value: string }) {
  const [before = '', after = ''] = translate(MARK).split(MARK)
  return (
    <>
      {before}
      <strong className="font-medium [overflow-wrap:anywhere] text-fg">{value}</strong>
      {after}
    </>
  )
}
