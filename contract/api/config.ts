// `GET /api/config`: this browser's configuration, also carried by every painted page. One
// definition for the browser (which parses it) and the app server (which builds it).
import * as z from 'zod/mini';
import { lazySchema } from '../lazy-schema';
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
    /**
     * Whether the counter hands rewards over (false: the setting turns it off, or the service is
     * known not to offer it). A server that does not send it predates hand-overs: read as true.
     */
    entregaPremios: z.optional(z.boolean()),
  }),
);
export type Config = z.infer<typeof Config>;
