import type { Alias } from 'vite'

export declare const PREACT_ALIASES: Alias[]
export declare const PREACT_JSX: { readonly runtime: 'automatic'; readonly importSource: 'preact' }
