import { describe, expect, it } from 'vitest';
import { createConnectionPool } from './connections.js';

describe('connection pool', () => {
  it('one agent per origin and approved addresses; another answer of DNS gets another agent', () => {
    const pool = createConnectionPool();
    const a = pool.agentFor('https://hooks.example.com/a', ['203.0.113.5']);
    expect(pool.agentFor('https://hooks.example.com/b?x=1', ['203.0.113.5'])).toBe(a);
    expect(pool.agentFor('https://hooks.example.com/a', ['203.0.113.6'])).not.toBe(a);
    expect(pool.agentFor('https://hooks.example.com:8443/a', ['203.0.113.5'])).not.toBe(a);
    expect(pool.agentFor('http://hooks.example.com/a', ['203.0.113.5'])).not.toBe(a);
    expect(pool.agentFor('not a url', ['203.0.113.5'])).toBeUndefined();
    pool.close();
    expect(pool.size()).toBe(0);
  });

  it('keeps at most maxAgents, closing the least recently used', () => {
    const pool = createConnectionPool({ maxAgents: 2 });
    const first = pool.agentFor('http://a.example/', ['192.0.2.1'])!;
    const second = pool.agentFor('http://b.example/', ['192.0.2.2'])!;
    expect(pool.agentFor('http://a.example/', ['192.0.2.1'])).toBe(first); // a is now the most recent
    let destroyed = false;
    const destroy = second.destroy.bind(second);
    second.destroy = () => {
      destroyed = true;
      destroy();
    };
    pool.agentFor('http://c.example/', ['192.0.2.3']);
    expect(pool.size()).toBe(2);
    expect(destroyed).toBe(true);
    expect(pool.agentFor('http://a.example/', ['192.0.2.1'])).toBe(first);
    pool.close();
  });
});
