/**
 * The store's migrations, in order, for both engines: one file each in ./migrations/ (what they
 * share in ./migrations/kit.ts). One schema builder call per change; the only dialect branch is
 * the auto-increment key. Add a new migration as a file with the next number and its line at
 * the end below: never edit one that has landed (deployed databases already ran it).
 */
import type { Migration } from 'kysely/migration';
import type { Engine } from './engine';
import { migrationKit } from './migrations/kit';
import { migration0001 } from './migrations/0001_terminals';
import { migration0002 } from './migrations/0002_postings_journal';
import { migration0003 } from './migrations/0003_posting_turns';
import { migration0004 } from './migrations/0004_contingency';
import { migration0005 } from './migrations/0005_kiosk_sales';
import { migration0006 } from './migrations/0006_reward_handover';
import { migration0007 } from './migrations/0007_audit';
import { migration0008 } from './migrations/0008_reconciliation';
import { migration0009 } from './migrations/0009_integration';
import { migration0010 } from './migrations/0010_dashboard_days';
import { migration0011 } from './migrations/0011_pdv_display';
import { migration0012 } from './migrations/0012_reconciliation_trigger';
import { migration0013 } from './migrations/0013_customer_lookups';
import { migration0014 } from './migrations/0014_vigilancia';
import { migration0015 } from './migrations/0015_chain_stores';
import { migration0016 } from './migrations/0016_alert_webhook';

/** Every migration by its name, in the order they run: the names are stored in databases. */
export function migrations(engine: Engine): Record<string, Migration> {
  const kit = migrationKit(engine);
  return {
    '0001_terminals': migration0001(kit),
    '0002_postings_journal': migration0002(kit),
    '0003_posting_turns': migration0003(kit),
    '0004_contingency': migration0004(kit),
    '0005_kiosk_sales': migration0005(kit),
    '0006_reward_handover': migration0006(kit),
    '0007_audit': migration0007(kit),
    '0008_reconciliation': migration0008(kit),
    '0009_integration': migration0009(kit),
    '0010_dashboard_days': migration0010(kit),
    '0011_pdv_display': migration0011(kit),
    '0012_reconciliation_trigger': migration0012(kit),
    '0013_customer_lookups': migration0013(kit),
    '0014_vigilancia': migration0014(kit),
    '0015_chain_stores': migration0015(kit),
    '0016_alert_webhook': migration0016(kit),
  };
}

/** The migrations' names in order (the same on both engines): the schema versions this code knows. */
export function migrationNames(): string[] {
  return Object.keys(migrations('sqlite'));
}
