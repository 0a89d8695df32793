/**
 * UMA on the wire: this Corridor as a participant in the open UMA network, as receiver (the
 * well-known endpoints of each platform's domain) and as sender (lookups of addresses hosted
 * elsewhere, and payments to them: paying.ts agrees, settling.ts settles). Assembled here from its parts: keys, the nonce store, counterparties' published keys,
 * the guarded HTTP client.
 */
import type { Clock } from '../../common/clock.js';
import type { Scope } from '../../common/scope.js';
import type { Database } from '../../db/database.js';
import type { Sealer } from '../../secrets/envelope.js';
import type { Fx } from '../quotes/pricing.js';
import { createCounterpartyKeyCache } from './counterparty-keys.js';
import type { DomainAddress } from './domain-map.js';
import { createUmaKeys } from './keys.js';
import { createNonceStore } from './nonces.js';
import type { CounterpartyPolicy } from './policy.js';
import { createReceiving } from './receiving.js';
import { createSending } from './sending.js';
import { createPayRequests } from './pay-requests.js';
import type { Arrivals } from '../incoming/arrival.js';
import { receiverErrors } from '../receiver/errors.js';
import { domainOf, type Resolver } from '../receiver/resolver.js';
import { createWireClient } from './wire-client.js';
import { createSandboxLightning } from './lightning.js';
import { createPaying, type Paying } from './paying.js';
import { createSettling, type Settling } from './settling.js';
import type { JobQueue } from '../../db/jobs.js';
import type { Lifecycle } from '../transactions/lifecycle.js';
import './tables.js';

export interface UmaWireDeps {
  db: Database;
  clock: Clock;
  fx: Fx;
  secrets: Sealer;
  domainAddresses: readonly DomainAddress[];
  allowPrivate: boolean;
  policy: CounterpartyPolicy;
  /** a getter: incoming payments are assembled after this module */
  arrivals: () => Arrivals;
  jobs: JobQueue;
  /** a getter: the payments are assembled after this module */
  lifecycle: () => Lifecycle;
  /** Runs on a platform's sandbox clock (src/modules/sandbox/clock.ts) */
  within?: <T>(scope: Scope, fn: () => Promise<T>) => Promise<T>;
  /** DNS answers for the URL guard (tests); the system resolver otherwise */
  resolve?: (host: string) => Promise<string[]>;
}

export function createUmaWire(deps: UmaWireDeps) {
  const wire = createWireClient({ domainAddresses: deps.domainAddresses, allowPrivate: deps.allowPrivate, resolve: deps.resolve });
  const keys = createUmaKeys(deps);
  const nonces = createNonceStore(deps);
  const counterparties = createCounterpartyKeyCache({ wire, clock: deps.clock });
  const receiving = createReceiving({ db: deps.db, clock: deps.clock, fx: deps.fx, keys, nonces, counterparties, policy: deps.policy });
  const sending = createSending({ db: deps.db, clock: deps.clock, wire, keys, nonces, counterparties, policy: deps.policy });
  /** The receiver service's resolver for addresses not hosted here: a lookup over the wire. */
  const remoteResolver: Resolver = {
    async resolve(_ex, _environment, address, sender) {
      if (!sender) throw receiverErrors.LOOKUP_REQUEST_FAILED({ umaAddress: address, domain: domainOf(address), reason: 'no sending platform' });
      return sending.lookup(sender, address);
    },
  };
  // SANDBOX settles on the sandbox Lightning; PRODUCTION has no backend yet (lightning.ts).
  const lightning = createSandboxLightning({ wire, now: () => deps.clock.now() });
  const payRequests = createPayRequests({ ...deps, keys, nonces, counterparties, receiving, lightning });
  const paying = createPaying({ ...deps, wire, keys, nonces, counterparties, sending });
  const settling = createSettling({ ...deps, wire, keys, lightning });
  /** What a quote and its execution use of a payment to another provider (src/modules/incoming/uma.ts). */
  const remotePayments: RemotePayments = { isRemote: paying.isRemote, agree: paying.agree, dispatch: settling.dispatch };
  return { wire, keys, nonces, counterparties, receiving, sending, remoteResolver, payRequests, remotePayments, settling };
}

export type RemotePayments = Pick<Paying, 'isRemote' | 'agree'> & Pick<Settling, 'dispatch'>;

export type UmaWire = ReturnType<typeof createUmaWire>;
