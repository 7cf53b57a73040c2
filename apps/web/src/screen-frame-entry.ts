/**
 * The script of the signed-in screens' frames (docs/decisions/0065): the server sends a signed-in
 * screen's header, heading and intro as HTML (apps/web/scripts/prerender.mjs), which paints before any
 * script has run. After that first paint this entry loads the app a chunk per task (load-app.ts), and
 * app/main.tsx draws the screen over its frame.
 */
import { afterNextPaint } from '@/lib/after-paint'
import { loadAppInParts } from '@/load-app'
import { initPwaInstall } from '@/pwa/pwa-install'

// Chrome fires beforeinstallprompt once, soon after load: listen before waiting for anything.
initPwaInstall()

void afterNextPaint().then(loadAppInParts)
