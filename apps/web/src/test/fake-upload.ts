import { vi } from 'vitest'

/** What the fake server answers one upload: a status and a JSON body. */
export type UploadAnswer = { status: number; body: unknown }

/**
 * Replaces XMLHttpRequest (the uploads' transport, lib/upload-picture.ts) with a fake that records each
 * request and answers it with `answer(url, n)`: progress 50 %, then the answer, on the next macrotask
 * (after `gate` resolves, when given: an upload held on its way).
 */
export function fakeUploads(answer: (url: string, n: number) => UploadAnswer, gate?: Promise<void>) {
  const sent: { method: string; url: string; file: File | null }[] = []
  class FakeXhr {
    status = 0
    responseText = ''
    timeout = 0
    upload: {
      onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null
    } = { onprogress: null }
    onload: (() => void) | null = null
    onerror: (() => void) | null = null
    ontimeout: (() => void) | null = null
    onabort: (() => void) | null = null
    private method = ''
    private url = ''
    private aborted = false
    open(method: string, url: string) {
      this.method = method
      this.url = url
    }
    setRequestHeader() {}
    abort() {
      this.aborted = true
      this.onabort?.()
    }
    send(form: FormData) {
      const n = sent.push({ method: this.method, url: this.url, file: form.get('image') as File | null })
      const { status, body } = answer(this.url, n)
      setTimeout(() => {
        if (this.aborted) return
        this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 })
        void (gate ?? Promise.resolve()).then(() => {
          if (this.aborted) return
          this.status = status
          this.responseText = JSON.stringify(body)
          this.onload?.()
        })
      }, 0)
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr)
  return sent
}

/** A file whose first bytes are a JPEG's (picture-check reads the signature). */
export function jpegFile(name = 'photo.jpg'): File {
  return new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1])], name, {
    type: 'image/jpeg',
  })
}

let photoNumber = 0
/** A stored condition photo as POST /api/handovers/photos answers it. */
export function conditionPhoto() {
  const n = ++photoNumber
  const hex = n.toString(16).padStart(32, '0')
  return {
    id: `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
    url: `/api/handovers/photos/${hex}.jpg`,
    thumbnailUrl: `/api/handovers/photos/${hex}-small.webp`,
    sha256: 'a'.repeat(64),
  }
}
