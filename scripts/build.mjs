#!/usr/bin/env node
// Builds what `npm start` and the CLI run: src/main.ts and src/cli/index.ts, bundled with their
// imports, packages included, into a few JavaScript files in dist/ (esbuild), with source maps. A
// few files load far faster than the thousand modules they hold (start: ~0.5 s instead of ~2 s).
// Left in node_modules: native addons, what serves files from its own folder, and what is loaded
// only on demand (OpenTelemetry). `npm install` runs it (prepare),
// `npm test` runs it first, and test/helpers/server.ts runs it when a source is newer than the build.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
// Built beside, then moved in file by file: a server starting meanwhile never reads half a file.
const staging = `${dist}.${process.pid}`;
await build({
  entryPoints: { main: path.join(root, 'src/main.ts'), cli: path.join(root, 'src/cli/index.ts') },
  outdir: staging,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // pg stays outside so that OpenTelemetry's instrumentation can patch it when it is loaded.
  // ssh2 loads its optional native crypto with require() in a try, which a bundle cannot do; so
  // does secp256k1 (UMA signatures, BOLT11 invoices), whose JavaScript fallback costs a UMA
  // payment tens of milliseconds of CPU more than its native binding.
  external: ['better-sqlite3', '@node-rs/argon2', 'pg', 'pg-native', '@fastify/swagger-ui', '@opentelemetry/*', 'ssh2', 'ssh2-sftp-client', 'secp256k1'],
  // CommonJS packages inside an ES module bundle still call require() for Node's own modules.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  // src/main.ts loads the server with a dynamic import (after tracing starts): a chunk of its own.
  splitting: true,
  sourcemap: true,
  logLevel: 'warning',
});
// V8 holds a script's source at one byte per character only if every character fits in Latin-1.
// esbuild writes code as ASCII but keeps some comments as they were, and one '→' in one of them
// doubles what a 2 MB bundle costs in memory. Whatever is not ASCII by now is inside a comment:
// written as an escape there, it changes nothing else.
for (const file of fs.readdirSync(staging).filter((name) => name.endsWith('.js'))) {
  const text = fs.readFileSync(path.join(staging, file), 'utf8');
  const ascii = text.replace(/[^\x00-\x7f]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
  if (ascii !== text) fs.writeFileSync(path.join(staging, file), ascii);
}
fs.mkdirSync(dist, { recursive: true });
const fresh = new Set(fs.readdirSync(staging));
for (const file of fresh) fs.renameSync(path.join(staging, file), path.join(dist, file));
// Chunks of earlier builds (their names carry a hash of their content) go.
for (const file of fs.readdirSync(dist)) if (!fresh.has(file) && file !== '.built') fs.rmSync(path.join(dist, file), { force: true });
fs.rmSync(staging, { recursive: true, force: true });
fs.writeFileSync(path.join(dist, '.built'), new Date().toISOString());
