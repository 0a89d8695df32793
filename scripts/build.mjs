#!/usr/bin/env node
// Builds what `npm start` and the CLI run: src/main.ts and src/cli/index.ts, each bundled with its
// imports into one JavaScript file in dist/ (esbuild; packages stay in node_modules), with source
// maps. One file loads far faster than two hundred modules. `npm install` runs it (prepare),
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
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
fs.mkdirSync(dist, { recursive: true });
for (const file of fs.readdirSync(staging)) fs.renameSync(path.join(staging, file), path.join(dist, file));
fs.rmSync(staging, { recursive: true, force: true });
fs.writeFileSync(path.join(dist, '.built'), new Date().toISOString());
