import { afterAll, describe, expect, it } from 'vitest';
import { cli, serverEnvironment } from '../helpers/server.js';
import { dialect } from '../helpers/env.js';

describe('the audit log of operator commands', { timeout: 120_000 }, async () => {
  const { env, cleanup } = await serverEnvironment(dialect);
  afterAll(cleanup);
  const entries = () => {
    const out = cli(['audit', 'list', '--json', '--limit', '100'], env);
    expect(out.status, out.stderr).toBe(0);
    return out.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  };

  it('records every command, who ran it on which host, its target and outcome, and never a password', () => {
    const made = cli(['platform', 'create', '--name', 'Audited Co', '--json'], env);
    expect(made.status, made.stderr).toBe(0);
    const { platformId } = JSON.parse(made.stdout);
    const user = cli(
      ['user', 'create', '--platform', platformId, '--email', 'ops@example.com', '--role', 'ADMIN', '--password', 'a secret long password'],
      env,
    );
    expect(user.status, user.stderr).toBe(0);
    const refused = cli(['token', 'create', '--platform', 'Platform:0190a0a0-0000-7000-8000-000000000000'], env);
    expect(refused.status).not.toBe(0);

    const log = entries();
    expect(log.map((e) => [e.action, e.outcome])).toEqual([
      ['token create', 'FAILED'],
      ['user create', 'SUCCEEDED'],
      ['platform create', 'SUCCEEDED'],
    ]);
    for (const e of log) {
      expect(e.actorType).toBe('OPERATOR');
      expect(e.actor).toMatch(/^.+@.+$/);
      expect(e.source).toMatch(/^cli@/);
      expect(Date.parse(e.createdAt)).not.toBeNaN();
    }
    expect(log[0].details.failure).toContain('no platform');
    expect(log[1]).toMatchObject({ target: 'ops@example.com', platformId });
    expect(JSON.stringify(log)).not.toContain('a secret long password');

    // Filters: by action prefix, by platform, and a limit.
    const byAction = cli(['audit', 'list', '--json', '--action', 'user'], env);
    expect(
      byAction.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).action),
    ).toEqual(['user create']);
    const limited = cli(['audit', 'list', '--json', '--limit', '1'], env);
    expect(limited.stdout.trim().split('\n')).toHaveLength(1);
    const human = cli(['audit', 'list', '--platform', platformId], env);
    expect(human.stdout).toContain('user create');
    expect(human.stdout).not.toContain('platform create');
    const bad = cli(['audit', 'list', '--limit', '0'], env);
    expect(bad.status).not.toBe(0);
  });
});
