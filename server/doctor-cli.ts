/**
 * `npm run doctor`: reports the Node.js running it, checks the configuration, the store and its
 * migrations, the service with the tokens, the clock and the backups, and prints a checklist
 * with what to fix for each problem (server/ops/doctor.ts). Reads the same environment as the server; changes nothing.
 * Exit status: 0 when nothing failed (warnings included), 1 otherwise.
 */
import { readArgs } from './cli-args';
import { ROOT } from './cli-store';
import { formatChecks, runDoctor } from './ops/doctor';

const USAGE = `uso:
  npm run doctor    confere a configuração, o banco, o serviço, o relógio e as cópias (sem argumentos)`;
readArgs(process.argv.slice(2), {}, USAGE);

const checks = await runDoctor({ env: process.env, root: ROOT });
process.stdout.write(`fidelidade-pdv: verificação da instalação\n\n${formatChecks(checks)}`);
process.exitCode = checks.some((c) => c.status === 'fail') ? 1 : 0;
