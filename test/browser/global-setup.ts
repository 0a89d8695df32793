import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureChromium } from '../../scripts/ensure-chromium.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Once per browser run: Debian's Chromium is installed and the dashboard is built. */
export default function setup() {
  ensureChromium();
  if (!fs.existsSync(path.join(ROOT, 'dashboard/dist/index.html'))) {
    const r = spawnSync('npm', ['run', 'build:dashboard'], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('building the dashboard failed');
  }
}
