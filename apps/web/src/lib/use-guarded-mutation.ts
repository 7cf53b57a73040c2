import {
  type DefaultError,
  useIsMutating,
  useMutation,
  type UseMutateAsyncFunction,
  type UseMutateFunction,
  type UseMutationOptions,
  type UseMutationResult,
  useQueryClient,
} from '@tanstack/react-query'
import { useCallback, useMemo, useRef, useState } from 'react'
import { ApiError } from '@/lib/api-client'
import { i18n } from '@/lib/i18n'
import { notify } from '@/lib/notify'
import { isOffline } from '@/pwa/offline/online-status'

/** What an ignored second press of mutateAsync answers: a promise that never settles, so nothing follows. */
const IGNORED: Promise<never> = new Promise<never>(() => undefined)

/**
 * Offline, a change is not sent (react-query would hold it paused until the network returns, and the
 * person would not know): it fails at once with the reason, which the caller shows as any failure
 * (docs/decisions/0054). Buttons are disabled offline anyway; this covers every other way in.
 */
function offlineFailure(): Promise<never> {
  const reason = i18n.t('offline.actionReason')
  notify.warning(reason)
  return Promise.reject(new ApiError(reason, { status: 0, code: 'OFFLINE' }))
}

/**
 * Runs one task at a time: `run` returns undefined, without calling the task, while an earlier run has
 * not settled. The guard is a ref, set in the same event as the press, so a second click that arrives
 * before React has re-rendered the button as disabled is ignored too (docs/decisions/0028).
 */
export function useSingleFlight() {
  const running = useRef(false)
  const [busy, setBusy] = useState(false)
  const run = useCallback(<T>(task: () => Promise<T>): Promise<T> | undefined => {
    if (running.current) return undefined
    running.current = true
    setBusy(true)
    let promise: Promise<T>
    try {
      promise = task()
    } catch (error) {
      promise = Promise.reject(error as Error)
    }
    const release = () => {
      running.current = false
      setBusy(false)
    }
    promise.then(release, release)
    return promise
  }, [])
  return { run, busy, isRunning: () => running.current }
}

/**
 * useMutation for every request that changes something (ESLint allows no other): a second `mutate`
 * while the first runs is ignored, in this component (a ref) and, for a mutation with a `mutationKey`,
 * anywhere in the app (a form left with Back and opened again while its request is still on its way).
 * `isPending` is true from the press on, so the button shows disabled and aria-busy at once.
 */
export function useGuardedMutation<
  TData = unknown,
  TError = DefaultError,
  TVariables = void,
  TContext = unknown,
>(
  options: UseMutationOptions<TData, TError, TVariables, TContext>,
): UseMutationResult<TData, TError, TVariables, TContext> {
  const mutation = useMutation(options)
  const queryClient = useQueryClient()
  const { run, busy } = useSingleFlight()
  const { mutateAsync } = mutation
  const { mutationKey } = options

  const guardedAsync: UseMutateAsyncFunction<TData, TError, TVariables, TContext> = useCallback(
    (...args: Parameters<typeof mutateAsync>) => {
      if (mutationKey && queryClient.isMutating({ mutationKey, exact: true }) > 0) return IGNORED
      if (isOffline()) return offlineFailure()
      return run(() => mutateAsync(...args)) ?? IGNORED
    },
    [mutateAsync, mutationKey, queryClient, run],
  )
  const guarded: UseMutateFunction<TData, TError, TVariables, TContext> = useCallback(
    (...args: Parameters<typeof mutateAsync>) => {
      // As useMutation's own mutate: the error reaches the callbacks and the result, not the caller.
      guardedAsync(...args).catch(() => undefined)
    },
    [guardedAsync],
  )
  const keyedPending = useIsKeyedPending(mutationKey)

  return useMemo(() => {
    const isPending = mutation.isPending || busy || keyedPending
    if (!isPending || mutation.isPending) {
      return { ...mutation, mutate: guarded, mutateAsync: guardedAsync }
    }
    // Pressed, and react-query has not yet re-rendered with its pending state.
    return {
      ...mutation,
      isPending: true,
      isIdle: false,
      status: 'pending',
      mutate: guarded,
      mutateAsync: guardedAsync,
    } as UseMutationResult<TData, TError, TVariables, TContext>
  }, [mutation, busy, keyedPending, guarded, guardedAsync])
}

function useIsKeyedPending(mutationKey: readonly unknown[] | undefined): boolean {
  const count = useIsMutating({ mutationKey: mutationKey ?? ['\u0000no-key'], exact: true })
  return mutationKey !== undefined && count > 0
}
