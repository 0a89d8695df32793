// `npm run bench`: every benchmark of bench/, on SQLite and PostgreSQL (BENCH_DB=sqlite to pick
// one, BENCH_SECONDS to lengthen each measurement); each writes its section of bench/RESULTS.md.
import fs from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
const only = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !['run.ts', 'lib.ts'].includes(f))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();

for (const file of files) {
  const mod = await import(path.join(dir, file));
  if (typeof mod.run !== 'function') continue;
  process.stdout.write(`bench ${file} …\n`);
  const t0 = Date.now();
  await mod.run();
  process.stdout.write(`bench ${file} done in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
}
process.stdout.write(`results: ${path.join(dir, 'RESULTS.md')}\n`);
