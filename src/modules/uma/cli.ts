/**
 * `npx corridor uma-keys show|rotate`: a platform's UMA keys. Rotation adds a new generation of the
 * signing, encryption and node keys; servers pick it up within half a minute, counterparties when
 * the keys they cached expire (an hour at most) or when a signature fails with them.
 */
import type { Command } from 'commander';
import { isId } from '../../common/ids.js';
import type { Environment, Scope } from '../../common/scope.js';
import { print, withContainer } from '../../cli/context.js';
import type { UmaKeySet } from './keys.js';
import { senderIdentity } from './sending.js';

const summary = (scope: Scope, domain: string, set: UmaKeySet) => ({
  platformId: scope.platformId,
  environment: scope.environment,
  umaDomain: domain,
  generation: set.signing.generation,
  signingPubKey: set.signing.publicKey.toString('hex'),
  encryptionPubKey: set.encryption.publicKey.toString('hex'),
  nodePubKey: set.node.publicKey.toString('hex'),
});

export function registerUmaKeyCommands(program: Command) {
  const keys = program.command('uma-keys').description("a platform's UMA signing, encryption and Lightning node keys");
  const scopeOf = (opts: { platform: string; environment: string }): Scope => {
    if (!isId('Platform', opts.platform)) program.error(`--platform must be a platform id (Platform:<uuid>), got "${opts.platform}"`);
    const environment = opts.environment.toUpperCase();
    if (environment !== 'SANDBOX' && environment !== 'PRODUCTION') program.error('--environment must be SANDBOX or PRODUCTION');
    return { platformId: opts.platform, environment: environment as Environment };
  };
  for (const [name, description] of [
    ['show', 'print the public keys in use (made on first use)'],
    ['rotate', 'replace the three keys with a new generation'],
  ] as const) {
    keys
      .command(name)
      .description(description)
      .requiredOption('--platform <id>', 'Platform:<id>')
      .option('--environment <environment>', 'SANDBOX or PRODUCTION', 'PRODUCTION')
      .option('--json', 'print one JSON object')
      .action(async (opts: { platform: string; environment: string; json?: boolean }) => {
        const scope = scopeOf(opts);
        await withContainer(async (c) => {
          let domain: string;
          try {
            domain = (await senderIdentity({ db: c.db, keys: c.umaWire.keys }, scope)).domain;
          } catch {
            return program.error(`no platform ${scope.platformId} in ${scope.environment}`);
          }
          const set = name === 'rotate' ? await c.umaWire.keys.rotate(scope, domain) : await c.umaWire.keys.current(scope, domain);
          const s = summary(scope, domain, set);
          print(
            !!opts.json,
            s,
            `${s.platformId} ${s.environment} ${s.umaDomain}: generation ${s.generation}\n  signing    ${s.signingPubKey}\n  encryption ${s.encryptionPubKey}\n  node       ${s.nodePubKey}`,
          );
        });
      });
  }
}
