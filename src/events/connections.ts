/**
 * Keep-alive connections for webhook delivery: one agent per endpoint origin and set of approved
 * addresses. The agent's own lookup answers only those addresses (pinnedLookup), and its key
 * holds them, so a pooled socket is always one that was opened to an address url-guard approved
 * for this very origin: when DNS answers other addresses, the next attempt gets another agent
 * and the old one's sockets are never used for them. The number of agents is bounded; the least
 * recently used one is closed to make room, and each agent keeps a bounded number of sockets.
 */
import http from 'node:http';
import https from 'node:https';
import { pinnedLookup } from './http-delivery.js';

export interface ConnectionPoolOptions {
  /** Agents kept at once (one per origin and address set). */
  maxAgents?: number;
  /** Open connections per agent (its endpoint's concurrency). */
  maxSocketsPerAgent?: number;
  /** Idle connections close after this long. */
  idleTimeoutMs?: number;
}

export function createConnectionPool(opts: ConnectionPoolOptions = {}) {
  const maxAgents = opts.maxAgents ?? 256;
  const maxSockets = opts.maxSocketsPerAgent ?? 32;
  const idleTimeoutMs = opts.idleTimeoutMs ?? 4_000;
  // Insertion order is use order (re-inserted on each use): the first key is the least recently used.
  const agents = new Map<string, http.Agent>();

  return {
    /** The agent for an attempt to `url` connected to one of `addresses` (already approved). */
    agentFor(url: string, addresses: readonly string[]): http.Agent | undefined {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return undefined;
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
      const key = `${parsed.protocol}//${parsed.host}|${[...addresses].join(',')}`;
      let agent = agents.get(key);
      if (agent) {
        agents.delete(key);
        agents.set(key, agent);
        return agent;
      }
      const Agent = parsed.protocol === 'https:' ? https.Agent : http.Agent;
      agent = new Agent({
        keepAlive: true,
        maxSockets,
        maxFreeSockets: maxSockets,
        // Shorter than the usual server keep-alive (Node's 5 s), so an idle socket is closed here before the receiver closes it under a request.
        timeout: idleTimeoutMs,
        scheduling: 'lifo',
        lookup: pinnedLookup(addresses),
      });
      agents.set(key, agent);
      while (agents.size > maxAgents) {
        const [oldest, old] = agents.entries().next().value as [string, http.Agent];
        agents.delete(oldest);
        old.destroy();
      }
      return agent;
    },
    size: () => agents.size,
    close() {
      for (const agent of agents.values()) agent.destroy();
      agents.clear();
    },
  };
}

export type ConnectionPool = ReturnType<typeof createConnectionPool>;
