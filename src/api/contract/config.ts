// `GET /api/config`: this browser's configuration, also carried by every painted page. One
// definition for the browser (which parses it) and the app server (which builds it).
import * as z from 'zod/mini';
import { lazySchema } from '../../lib/lazy-schema';
import { Terminal } from './terminals';

export const Config = lazySchema(() =>
  z.looseObject({
    establishmentId: z.int().check(z.positive()),
    establishmentName: z.nullable(z.string()),
    mode: z.enum(['sandbox', 'live']),
    /** This browser's terminal; null: not enrolled (every service route answers 401). */
    terminal: z.nullable(Terminal),
    /** 'auto': the sandbox on loopback enrolls browsers itself; 'code': a manager's code. */
    enrollment: z.enum(['auto', 'code']),
  }),
);
export type Config = z.infer<typeof Config>;
