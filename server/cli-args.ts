/**
 * The command lines' arguments (`npm run terminal`, `loja`, `pdv`, `backup`, `restore`, `doctor`),
 * read one way: an option or an argument a command does not take is a usage error, said in one
 * Portuguese line naming it, then the command's usage, exit status 2; never Node's stack
 * trace. `--help` (or `-h`) prints the usage and exits 0.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Says what went wrong (one line, no usage) and exits 2. */
export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

/** Says what is wrong (one line), then the usage, and exits 2. */
export function usageError(line: string, usage: string): never {
  process.stderr.write(`${line}\n${usage}\n`);
  process.exit(2);
}

/** Whether `typed` is an id as a person types one: digits only, a safe whole number above 0. */
export function isPositiveId(typed: string): boolean {
  const id = Number(typed);
  return /^\d+$/.test(typed) && Number.isSafeInteger(id) && id > 0;
}

/**
 * The id a command takes as its argument (`revoke 3`, `remove 7`), or a usage error: `missing`
 * when there is none, `invalid: <typed>` when it is no id.
 */
export function positiveId(
  typed: string | undefined,
  usage: string,
  said: { missing: string; invalid: string },
): number {
  if (typed === undefined) usageError(said.missing, usage);
  if (!isPositiveId(typed)) usageError(`${said.invalid}: ${typed}`, usage);
  return Number(typed);
}

/** The first word is no command: `--help` asks for the usage, anything else is named. */
export function unknownCommand(word: string | undefined, usage: string): never {
  if (word === '--help' || word === '-h') {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  return usageError(
    word === undefined ? 'falta o comando' : `comando desconhecido: ${word}`,
    usage,
  );
}

/**
 * `args` read against `options`, with at most `positionals` arguments that are not options
 * (default none): anything else ends the command with a usage error naming it.
 */
export function readArgs<O extends Options>(
  args: string[],
  options: O,
  usage: string,
  { positionals = 0 }: { positionals?: number } = {},
) {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  // Read loosely first, to name what is wrong in Portuguese; then strictly, for the values.
  const { tokens } = parseArgs({
    args,
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  let seen = 0;
  for (const t of tokens) {
    if (t.kind === 'positional') {
      seen += 1;
      if (seen > positionals) usageError(`argumento inesperado: ${t.value}`, usage);
    } else if (t.kind === 'option') {
      const known = Object.hasOwn(options, t.name) ? options[t.name] : undefined;
      if (known === undefined) usageError(`opção desconhecida: ${t.rawName}`, usage);
      if (known.type === 'string' && t.value === undefined) {
        usageError(`falta o valor de ${t.rawName}`, usage);
      }
      if (known.type === 'boolean' && t.value !== undefined) {
        usageError(`${t.rawName} não leva valor`, usage);
      }
    }
  }
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: positionals > 0 });
  } catch (err) {
    // What the loose reading let through (a value that looks like an option, e.g. `--name
    // --role`): still one line, naming what Node named.
    const named = /'([^']+)'/.exec(err instanceof Error ? err.message : '')?.[1];
    return usageError(`argumentos inválidos${named ? `: ${named}` : ''}`, usage);
  }
}
