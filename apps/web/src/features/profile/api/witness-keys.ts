import { ZWitnessKeyListResponse } from '@circles/shared'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { deviceKeyStore } from '@/lib/ledger-verification/witness-key-store'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'

const witnessKeysKey = ['profile', 'witness-keys'] as const
const thisDeviceKey = (userId: string) => ['profile', 'witness-keys', 'this-device', userId] as const

/** GET /ledger/witness-keys: the account's devices' witness keys, newest first (issue 29). */
export const useWitnessKeys = () =>
  useQuery({
    queryKey: witnessKeysKey,
    queryFn: ({ signal }) =>
      api.get('/ledger/witness-keys', ZWitnessKeyListResponse, { signal }).then((a) => a.witnessKeys),
  })

/** The device id this browser registered its key under for the account, if it has one (IndexedDB). */
export const useThisWitnessDevice = (userId: string) =>
  useQuery({
    queryKey: thisDeviceKey(userId),
    queryFn: async () => (await deviceKeyStore.get(userId).catch(() => undefined))?.deviceId ?? null,
    staleTime: Infinity,
  })

/**
 * DELETE /ledger/witness-keys/:deviceId: the key and its cosignatures leave the server. This device's own
 * key also leaves the device, so its next check of a ledger makes and registers a new one
 * (docs/decisions/0064); another device finds out at its next cosignature and does the same.
 */
export const useRemoveWitnessKey = (userId: string) => {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationFn: async (deviceId: string) => {
      const answer = await api.delete(
        `/ledger/witness-keys/${encodeURIComponent(deviceId)}`,
        ZWitnessKeyListResponse,
      )
      const own = await deviceKeyStore.get(userId).catch(() => undefined)
      if (own?.deviceId === deviceId) await deviceKeyStore.delete(userId).catch(() => undefined)
      return answer.witnessKeys
    },
    onSuccess: (keys) => queryClient.setQueryData(witnessKeysKey, keys),
    // The list and this device's id (a key below it) are read again, whatever happened.
    onSettled: () => queryClient.invalidateQueries({ queryKey: witnessKeysKey }),
  })
}
