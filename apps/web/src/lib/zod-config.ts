import { config } from 'zod'

// Our CSP has no 'unsafe-eval'. Zod would otherwise probe `new Function` on the first parse, which the
// browser reports as a policy violation even though zod catches it; jitless parses without the probe.
config({ jitless: true })
