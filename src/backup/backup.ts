import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

export interface BackupResult {
  file: string;
  bytes: number;
}

export class BackupError extends Error {}

/**
 * A consistent online copy of a SQLite database file. `VACUUM INTO` reads the database inside one
 * read transaction, so the copy is the database as of one instant even while the server keeps
 * writing (WAL: readers never block the writer, and the writer never blocks this reader). The copy
 * is written beside its destination, checked, flushed to disk and only then renamed into place, so
 * a crash never leaves a half-written file under the destination's name.
 */
export function backupSqlite(sourceFile: string, destination: string): BackupResult {
  const source = path.resolve(sourceFile);
  const target = path.resolve(destination);
  if (!fs.existsSync(source)) throw new BackupError(`no database at ${source}`);
  if (fs.existsSync(target)) throw new BackupError(`${target} already exists; choose a new file name`);
  const dir = path.dirname(target);
  if (!fs.existsSync(dir)) throw new BackupError(`the directory ${dir} does not exist`);
  const partial = path.join(dir, `.${path.basename(target)}.${process.pid}.partial`);
  fs.rmSync(partial, { force: true });
  try {
    const db = new SQLite(source, { fileMustExist: true });
    try {
      // The server may hold the write lock for a moment; the copy only needs a read snapshot.
      db.pragma('busy_timeout = 10000');
      db.prepare('VACUUM INTO ?').run(partial);
    } finally {
      db.close();
    }
    const copy = new SQLite(partial, { readonly: true, fileMustExist: true });
    try {
      const check = copy.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new BackupError(`the copy failed its integrity check: ${String(check)}`);
    } finally {
      copy.close();
    }
    const fd = fs.openSync(partial, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(partial, target);
    const dirFd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(dirFd);
    } finally {
      fs.closeSync(dirFd);
    }
    return { file: target, bytes: fs.statSync(target).size };
  } catch (e) {
    fs.rmSync(partial, { force: true });
    throw e;
  }
}
