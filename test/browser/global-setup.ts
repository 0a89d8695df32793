import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureChromium } from '../../scripts/ensure-chromium.js';
import { newest } from '../helpers/server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Once per browser run: Debian's Chromium is installed and the dashboard is built from its current sources. */
export default function setup() {
  ensureChromium();
  const built = path.join(ROOT, 'dashboard/dist/index.html');
  if (!fs.existsSync(built) || fs.statSync(built).mtimeMs < newest(path.join(ROOT, 'dashboard/src'))) {
    const r = spawnSync('npm', ['run', 'build:dashboard'], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('building the dashboard failed');
  }
}
