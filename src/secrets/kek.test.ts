import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { decodeKek, KEK_FILE_NAME, loadSecrets } from './kek.js';

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-kek-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('where the key-encryption key comes from', () => {
  const kek = randomBytes(32).toString('base64');

  it('CORRIDOR_KEK (base64 of 32 bytes), validated by the configuration', () => {
    const secrets = loadSecrets(loadConfig({ DATA_DIR: tmp(), CORRIDOR_KEK: kek }));
    expect(secrets.source).toBe('CORRIDOR_KEK');
    expect(() => loadConfig({ CORRIDOR_KEK: 'c2hvcnQ=' })).toThrow(/CORRIDOR_KEK must be base64 of 32 bytes/);
    expect(() => loadConfig({ CORRIDOR_KEK: kek, CORRIDOR_KEK_FILE: '/run/secrets/kek' })).toThrow(/not both/);
    expect(() => loadConfig({ CORRIDOR_KEK_PREVIOUS: `${kek},nope` })).toThrow(/CORRIDOR_KEK_PREVIOUS/);
  });

  it('CORRIDOR_KEK_FILE: base64 text or the raw bytes; a sealed value opens with the same key from either source', () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, 'kek.txt'), `${kek}\n`);
    fs.writeFileSync(path.join(dir, 'kek.bin'), decodeKek(kek)!);
    const fromText = loadSecrets(loadConfig({ DATA_DIR: dir, CORRIDOR_KEK_FILE: path.join(dir, 'kek.txt') }));
    const fromBytes = loadSecrets(loadConfig({ DATA_DIR: dir, CORRIDOR_KEK_FILE: path.join(dir, 'kek.bin') }));
    expect(fromText.source).toBe('CORRIDOR_KEK_FILE');
    expect(fromBytes.openText(fromText.sealText('s', 'c'), 'c')).toBe('s');
    expect(loadSecrets(loadConfig({ DATA_DIR: dir, CORRIDOR_KEK: kek })).openText(fromText.sealText('s', 'c'), 'c')).toBe('s');
  });

  it('the embedded default generates one in the data directory (0600) with a warning, and keeps it', () => {
    const dir = path.join(tmp(), 'data');
    const warnings: string[] = [];
    const first = loadSecrets(loadConfig({ DATA_DIR: dir }), (m) => warnings.push(m));
    const file = path.join(dir, KEK_FILE_NAME);
    expect(first).toMatchObject({ source: 'data directory', file });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(warnings).toEqual([expect.stringMatching(/generated a key-encryption key in .*kek\.key.*CORRIDOR_KEK/)]);
    const again = loadSecrets(loadConfig({ DATA_DIR: dir }), (m) => warnings.push(m));
    expect(again.openText(first.sealText('s', 'c'), 'c')).toBe('s');
    expect(warnings).toHaveLength(1);
  });

  it('a data directory that cannot hold it: a key for this process only, with a warning', () => {
    const warnings: string[] = [];
    const blocker = path.join(tmp(), 'a-file');
    fs.writeFileSync(blocker, 'not a directory');
    const secrets = loadSecrets(loadConfig({ DATA_DIR: path.join(blocker, 'data') }), (m) => warnings.push(m));
    expect(secrets.source).toBe('this process only');
    expect(warnings[0]).toMatch(/cannot hold one.*set CORRIDOR_KEK/);
  });
});
