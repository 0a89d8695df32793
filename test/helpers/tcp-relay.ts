/**
 * A TCP relay between the code under test and PostgreSQL, which a test can cut: `freeze()` stops
 * forwarding bytes both ways without closing anything (a silent network cut: packets dropped, no
 * reset, so only a timeout can notice), `thaw()` forwards again what was held and what follows,
 * `reset()` destroys every connection (a reset cut, a restarted proxy). New connections are
 * accepted while frozen and held silent too, as a cut network would leave a connect unanswered.
 */
import net from 'node:net';

export interface TcpRelay {
  /** The relay's port on 127.0.0.1. */
  port: number;
  /** `url` with its host and port replaced by the relay's. */
  urlFor(url: string): string;
  freeze(): void;
  thaw(): void;
  reset(): void;
  /** Connections open through the relay now. */
  connections(): number;
  /** The local ports of the relay's connections to PostgreSQL: pg_stat_activity.client_port of the backends behind it. */
  upstreamPorts(): number[];
  close(): Promise<void>;
}

export async function startTcpRelay(target: { host: string; port: number } = { host: '127.0.0.1', port: 5432 }): Promise<TcpRelay> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let frozen = false;

  /** Pipes `from` into `to`, holding every chunk while the relay is frozen. */
  function forward(from: net.Socket, to: net.Socket) {
    from.on('data', (chunk: Buffer) => {
      if (frozen) {
        // Not read further while frozen: the kernel buffers fill and the peer's writes stall, as on a cut link.
        from.pause();
        held.push(() => {
          to.write(chunk);
          from.resume();
        });
        return;
      }
      to.write(chunk);
    });
  }
  let held: Array<() => void> = [];

  const server = net.createServer((client) => {
    client.setNoDelay(true);
    const upstream = net.connect(target.port, target.host);
    upstream.setNoDelay(true);
    const pair = { client, upstream };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    urlFor(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      const release = held;
      held = [];
      for (const go of release) go();
    },
    reset() {
      for (const { client, upstream } of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
      held = [];
    },
    connections: () => pairs.size,
    upstreamPorts: () => [...pairs].map((p) => p.upstream.localPort).filter((port): port is number => port !== undefined),
    async close() {
      frozen = false;
      held = [];
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
