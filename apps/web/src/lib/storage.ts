/**
 * localStorage that never throws: private modes and disabled storage raise on access, and a session
 * helper must not take the whole app down with it. Without storage the app still works for one page view.
 */
function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage
  } catch {
    return null
  }
}

export function readItem(key: string): string | null {
  try {
    return storage()?.getItem(key) ?? null
  } catch {
    return null
  }
}

export function writeItem(key: string, value: string): void {
  try {
    storage()?.setItem(key, value)
  } catch {
    // Quota exceeded or storage disabled: the value lives only as long as the page.
  }
}

export function removeItem(key: string): void {
  try {
    storage()?.removeItem(key)
  } catch {
    // Nothing stored, nothing to remove.
  }
}

export interface StoredString {
  get(): string | null
  set(value: string): void
  clear(): void
}

export function storedString(key: string): StoredString {
  return {
    get: () => readItem(key),
    set: (value) => writeItem(key, value),
    clear: () => removeItem(key),
  }
}
