/** The dashboard's feed; lib/realtime puts a new activity in front of it without a round trip. */
export const RECENT_ACTIVITIES_KEY = ['dashboard', 'activities'] as const
