// Preloaded (`NODE_OPTIONS=--import …/sqlite-binding.mjs`) by the second-runtime test pass
// (.ci/node24): node_modules holds better-sqlite3's addon built for the Node that ran `npm ci`,
// which another Node version refuses to load (NODE_MODULE_VERSION). Every load of that addon, in
// this process and in the processes it starts (they inherit NODE_OPTIONS), is pointed at
// BETTER_SQLITE3_BINDING instead: an addon built from the same sources for this runtime.
import path from 'node:path';

const binding = process.env.BETTER_SQLITE3_BINDING;
if (binding) {
  const dlopen = process.dlopen;
  process.dlopen = function (module, filename, ...rest) {
    const target = path.basename(filename) === 'better_sqlite3.node' ? binding : filename;
    return dlopen.call(this, module, target, ...rest);
  };
}
