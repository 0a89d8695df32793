import fs from 'node:fs';
import path from 'node:path';

/**
 * The project's root folder (where package.json is), from this module's place: src/common when
 * run from source, dist/ when run from the built bundle, so files beside the code are found by
 * the same name either way.
 */
function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const PROJECT_ROOT = findRoot(import.meta.dirname);

/** A path inside the project: `projectPath('dashboard', 'dist')`. */
export const projectPath = (...parts: string[]) => path.join(PROJECT_ROOT, ...parts);
