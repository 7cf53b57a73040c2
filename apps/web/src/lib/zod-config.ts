import { config } from 'zod/mini'
import en from 'zod/v4/locales/en.js'

// Our CSP has no 'unsafe-eval'. Zod would otherwise probe `new Function` on the first parse, which the
// browser reports as a policy violation even though zod catches it; jitless parses without the probe.
// The contract is zod/mini, which loads no locale: English gives zod's own messages (e.g. "Invalid input:
// expected string, received number") the words classic zod gave them, not a bare "Invalid input".
config({ jitless: true, ...en() })
