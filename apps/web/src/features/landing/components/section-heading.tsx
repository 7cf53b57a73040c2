import type { ReactNode } from 'react'
import { cn } from '@/lib/class-names'

interface SectionHeadingProps {
  id: string
  eyebrow: string
  title: string
  intro?: ReactNode
  align?: 'start' | 'center'
  className?: string
}

/** Eyebrow, h2 and intro of a landing section; the h2's id labels the section. */
export function SectionHeading({
  id,
  eyebrow,
  title,
  intro,
  align = 'start',
  className,
}: SectionHeadingProps) {
  return (
    <div
      className={cn(
        'flex max-w-[60ch] flex-col gap-3',
        align === 'center' && 'mx-auto items-center text-center',
        className,
      )}
    >
      <p className="text-sm font-semibold text-accent-text">{eyebrow}</p>
      <h2 id={id} className="text-xl font-semibold tracking-tight text-balance text-fg sm:text-2xl">
        {title}
      </h2>
      {intro ? <p className="text-base text-pretty text-fg-muted sm:text-lg">{intro}</p> : null}
    </div>
  )
}

/** The width and vertical rhythm every landing section shares. */
export const SECTION_INNER = 'mx-auto w-full max-w-6xl px-4 py-16 sm:px-6 sm:py-20 lg:py-24'
