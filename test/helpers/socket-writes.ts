import net from 'node:net';

/**
 * Runs fn and counts the writes every socket of this process hands to the kernel meanwhile (a write
 * of several buffers, as a corked socket makes, counts once): what reaches the database in how many
 * round trips, whatever the code counts itself.
 */
export async function socketWrites<T>(fn: () => Promise<T>): Promise<{ value: T; writes: number }> {
  const proto = net.Socket.prototype as unknown as { _writeGeneric: (...a: unknown[]) => unknown };
  const original = proto._writeGeneric;
  let writes = 0;
  proto._writeGeneric = function (this: unknown, ...args: unknown[]) {
    writes++;
    return original.apply(this, args);
  };
  try {
    return { value: await fn(), writes };
  } finally {
    proto._writeGeneric = original;
  }
}
