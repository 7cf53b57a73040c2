/** A hash as people read it: the first 8 and last 4 characters, monospace; the whole in the title. */
export function ShortHash({ hash }: { hash: string }) {
  return (
    <code title={hash} className="font-mono text-xs">
      {hash.slice(0, 8)}…{hash.slice(-4)}
    </code>
  )
}
