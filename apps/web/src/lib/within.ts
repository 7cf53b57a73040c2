/**
 * `promise`'s value, or undefined once `ms` have passed without it: for waits that must not hold the app
 * up (the first page's code before the first render, the offline cache, the service worker, sign-out's
 * push clean-up). The promise itself goes on; a rejection before the deadline passes through.
 */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: number | undefined
  const deadline = new Promise<undefined>((resolve) => {
    timer = window.setTimeout(resolve, ms)
  })
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer))
}
