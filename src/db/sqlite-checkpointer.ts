import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/** How long after the writer's first signal the checkpoint runs; signals meanwhile are one. */
const INTERVAL_MS = 100;
/** Log length (pages) past which the writer finishes a checkpoint itself so the log restarts (see below). */
export const RESTART_PAGES = 8192;

// The thread's code (CommonJS): a connection of its own to the database file, and a PASSIVE
// checkpoint (it never blocks the writer or a reader) INTERVAL_MS after the writer said it wrote.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('synchronous = ' + workerData.synchronous);
let due;
parentPort.on('message', (message) => {
  if (message === 'close') {
    clearTimeout(due);
    db.close();
    parentPort.close();
    return;
  }
  due ??= setTimeout(() => {
    due = undefined;
    parentPort.postMessage(db.pragma('wal_checkpoint(PASSIVE)')[0]);
  }, workerData.intervalMs);
});
`;

/**
 * Checkpoints of a SQLite database on a thread of their own. SQLite checkpoints inside the COMMIT
 * that fills the write-ahead log past 1,000 pages: it copies the log into the database file and
 * flushes both, on the event loop — one commit in eight took 5 to 10 ms, half of all commit time
 * under payments. The writer turns that off (wal_autocheckpoint = 0) and tells this thread when a
 * group is durable; SQLite restarts the log at the writer's next transaction once a checkpoint
 * copied all of it. `onFailure` runs if the thread dies: the writer checkpoints itself again.
 *
 * Under writes that never pause, that moment never comes: each checkpoint copies the log as it
 * was when it began, while the writer appends more, so the log grew without end (500 MB in ten
 * seconds of payments), and every page appended to it was a new block of the file that the
 * kernel zeroes before writing (a seventh of the server's CPU). So once the thread reports a log
 * past `restartPages`, `restartDue()` answers true once: the writer then checkpoints the last
 * frames itself before its next transaction (only those written since the thread's checkpoint
 * began), and that transaction restarts the log from its first page.
 */
export function startCheckpointer(file: string, synchronous: 'FULL' | 'NORMAL', onFailure: (e: Error) => void, restartPages: number) {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const thread = new Worker(THREAD, { eval: true, workerData: { driver, file: path.resolve(file), synchronous, intervalMs: INTERVAL_MS } });
  // It never keeps a process alive: close() ends it, and a process that exits without closing loses nothing (the log stays).
  thread.unref();
  let failed = false;
  let signalled = -Infinity;
  let restart = false;
  thread.on('error', (e) => {
    failed = true;
    onFailure(e);
  });
  // The PASSIVE checkpoint's answer: whether it was blocked, the pages in the log, the pages copied.
  thread.on('message', ({ log }: { busy: number; log: number; checkpointed: number }) => {
    if (log >= restartPages) restart = true;
  });
  return {
    /** True once after the thread found the log past `restartPages`: the writer should checkpoint before its next transaction. */
    restartDue() {
      const due = restart;
      restart = false;
      return due;
    },
    /** A group is durable: the log has frames to copy. Within half an interval of the last signal the pending checkpoint still follows this write. */
    wrote() {
      const now = performance.now();
      if (failed || now - signalled < INTERVAL_MS / 2) return;
      signalled = now;
      thread.postMessage('wrote');
    },
    async close() {
      if (failed) return;
      const exited = new Promise((resolve) => thread.once('exit', resolve));
      // Held while it closes: an unreferenced thread's exit would not keep the process waiting for it.
      thread.ref();
      thread.postMessage('close');
      await exited;
    },
  };
}
