import { z } from 'zod';

// The server's content security policy allows no eval. Left to itself, zod probes `new Function` on
// its first parse to choose a faster path, and the browser reports each probe as a CSP violation.
// main.tsx imports this first, so the setting is in place before any module parses anything.
z.config({ jitless: true });
