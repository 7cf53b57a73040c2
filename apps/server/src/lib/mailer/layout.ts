const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c)
}

export interface EmailParts {
  preheader: string
  heading: string
  paragraphs: string[]
  action?: { label: string; url: string }
  footnote?: string
  /** A notice the recipient may switch off: the sentence and the unsubscribe page. */
  unsubscribe?: { text: string; label: string; url: string }
}

/** A plain, table-based layout that renders in every mail client; all values are escaped here. */
export function renderHtml(lang: string, p: EmailParts): string {
  const para = (t: string) =>
    `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:#1f2933">${escapeHtml(t)}</p>`
  const button = p.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(p.action.url)}" style="display:inline-block;background:#0f766e;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:8px">${escapeHtml(p.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;line-height:20px;color:#52606d;word-break:break-all">${escapeHtml(p.action.url)}</p>`
    : ''
  const foot = p.footnote
    ? `<p style="margin:24px 0 0;font-size:13px;line-height:20px;color:#52606d">${escapeHtml(p.footnote)}</p>`
    : ''
  const unsubscribe = p.unsubscribe
    ? `<p style="margin:16px 0 0;font-size:12px;line-height:18px;color:#7b8794">${escapeHtml(p.unsubscribe.text)} <a href="${escapeHtml(p.unsubscribe.url)}" style="color:#52606d">${escapeHtml(p.unsubscribe.label)}</a></p>`
    : ''
  return `<!doctype html>
<html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(p.heading)}</title></head>
<body style="margin:0;padding:0;background:#f5f7fa;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif">
<span style="display:none">${escapeHtml(p.preheader)}</span>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border:1px solid #e4e7eb;border-radius:12px">
<tr><td style="padding:32px">
<p style="margin:0 0 24px;font-size:18px;font-weight:700;color:#0f766e">Circles</p>
<h1 style="margin:0 0 16px;font-size:22px;line-height:30px;color:#1f2933">${escapeHtml(p.heading)}</h1>
${p.paragraphs.map(para).join('\n')}${button}${foot}${unsubscribe}
</td></tr></table></td></tr></table></body></html>`
}

export function renderText(p: EmailParts): string {
  const lines = [p.heading, '', ...p.paragraphs.flatMap((t) => [t, ''])]
  if (p.action) lines.push(`${p.action.label}: ${p.action.url}`, '')
  if (p.footnote) lines.push(p.footnote, '')
  if (p.unsubscribe) lines.push(`${p.unsubscribe.text} ${p.unsubscribe.label}: ${p.unsubscribe.url}`, '')
  lines.push('Circles')
  return lines.join('\n')
}
