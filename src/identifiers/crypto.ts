/**
 * Crypto wallet addresses, per cryptoNetwork. Hand-written on @scure/base and @noble/hashes
 * (LIBRARIES.md): the full SDKs (viem, @solana/addresses, spark-sdk) are far too heavy for a check.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { base58, bech32, bech32m } from '@scure/base';
import { Network as BtcNetwork, validate as validateBtc } from 'bitcoin-address-validation';

export const CRYPTO_NETWORKS = [
  'SOLANA_MAINNET',
  'SOLANA_DEVNET',
  'ETHEREUM_MAINNET',
  'ETHEREUM_TESTNET',
  'BASE_MAINNET',
  'BASE_TESTNET',
  'LIGHTNING_MAINNET',
  'LIGHTNING_REGTEST',
  'LAYER2_MAINNET',
  'LAYER2_TESTNET',
] as const;
export type CryptoNetwork = (typeof CRYPTO_NETWORKS)[number];

/** Which currencies each network carries: BTC over Lightning and layer 2, USDC on the chains. */
export const CRYPTO_NETWORK_CURRENCIES: Readonly<Record<CryptoNetwork, readonly string[]>> = {
  SOLANA_MAINNET: ['USDC'],
  SOLANA_DEVNET: ['USDC'],
  ETHEREUM_MAINNET: ['USDC'],
  ETHEREUM_TESTNET: ['USDC'],
  BASE_MAINNET: ['USDC'],
  BASE_TESTNET: ['USDC'],
  LIGHTNING_MAINNET: ['BTC'],
  LIGHTNING_REGTEST: ['BTC'],
  LAYER2_MAINNET: ['BTC'],
  LAYER2_TESTNET: ['BTC'],
};

export function isCryptoNetwork(value: string): value is CryptoNetwork {
  return (CRYPTO_NETWORKS as readonly string[]).includes(value);
}

export function cryptoNetworkCarries(network: string, currency: string): boolean {
  return isCryptoNetwork(network) && CRYPTO_NETWORK_CURRENCIES[network].includes(currency);
}

/** True for the networks that move no real money (sandbox-friendly). */
export function isTestNetwork(network: CryptoNetwork): boolean {
  return /_(DEVNET|TESTNET|REGTEST)$/.test(network);
}

// ---------------------------------------------------------------- Solana

/** A Solana address is the base58 encoding of a 32-byte ed25519 public key (32 to 44 characters). */
export function validateSolanaAddress(address: string): string | null {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)) return 'Solana address must be 32 to 44 base58 characters';
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(address);
  } catch {
    return 'Solana address is not valid base58';
  }
  return bytes.length === 32 ? null : 'Solana address must decode to 32 bytes';
}

// ---------------------------------------------------------------- EVM (Ethereum, Base)

/** EIP-55 mixed-case checksum form of a 20-byte hex address. */
export function toChecksumAddress(address: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error('toChecksumAddress needs 0x and 40 hex digits');
  const lower = address.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < 40; i++) out += parseInt(hash[i], 16) >= 8 ? lower[i].toUpperCase() : lower[i];
  return out;
}

/**
 * 0x + 40 hex digits. All-lower or all-upper case carries no checksum (allowed, as wallets do);
 * mixed case must be the exact EIP-55 form, which catches most typos.
 */
export function validateEvmAddress(address: string): string | null {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return 'EVM address must be 0x followed by 40 hex digits';
  const body = address.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return null;
  return toChecksumAddress(address) === address ? null : 'EVM address has an invalid EIP-55 checksum';
}

// ---------------------------------------------------------------- Lightning / layer 2

/**
 * Lightning address (LUD-16): `username@domain`, username limited to a-z0-9-_. (lower case) and a
 * DNS host name; the wallet resolves https://domain/.well-known/lnurlp/username.
 */
export function validateLightningAddress(address: string): string | null {
  const at = address.lastIndexOf('@');
  if (at <= 0 || at !== address.indexOf('@')) return 'Lightning address must look like user@domain';
  const user = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (!/^[a-z0-9._-]+$/.test(user)) return 'Lightning address username may only contain a-z, 0-9, ".", "_" and "-" (lower case)';
  if (domain.length > 253 || !/^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/.test(domain)) {
    return 'Lightning address domain is not a valid host name';
  }
  return null;
}

/**
 * Structural BOLT11 check: valid bech32 (length limit lifted), the human-readable part is
 * ln + the network's prefix + an optional amount, and the data holds at least the 35-bit timestamp
 * and the 520-bit signature. The signature itself is not verified here.
 */
export function validateBolt11(invoice: string, prefix: 'lnbc' | 'lnbcrt'): string | null {
  let decoded: { prefix: string; words: number[] };
  try {
    decoded = bech32.decode(invoice.toLowerCase() as `${string}1${string}`, false);
  } catch {
    return 'Lightning invoice is not valid bech32';
  }
  // lnbcrt… also starts with lnbc, so match the whole human-readable part.
  if (!new RegExp(`^${prefix}(\\d+[munp]?)?$`).test(decoded.prefix)) return `Lightning invoice must start with ${prefix} on this network`;
  if (decoded.words.length < 7 + 104) return 'Lightning invoice is too short';
  return null;
}

const SPARK_MAINNET_HRPS = ['spark', 'sp'];
const SPARK_TEST_HRPS = ['sparkrt', 'sprt', 'sparkt', 'spt'];

/**
 * Spark address: bech32m whose payload is the protobuf field 1 (0x0a), length 33 (0x21), then the
 * 33-byte compressed identity public key (02/03 prefix). Spark invoices, which add more fields,
 * are not accepted as a standing account address.
 */
export function validateSparkAddress(address: string, testNetwork: boolean): string | null {
  let decoded: { prefix: string; bytes: Uint8Array };
  try {
    decoded = bech32m.decodeToBytes(address.toLowerCase());
  } catch {
    return 'Spark address is not valid bech32m';
  }
  const hrps = testNetwork ? SPARK_TEST_HRPS : SPARK_MAINNET_HRPS;
  if (!hrps.includes(decoded.prefix)) return `Spark address prefix must be ${hrps.join(' or ')} on this network`;
  const b = decoded.bytes;
  if (b.length !== 35 || b[0] !== 0x0a || b[1] !== 0x21 || (b[2] !== 0x02 && b[2] !== 0x03)) {
    return 'Spark address payload must be a 33-byte compressed public key';
  }
  return null;
}

function looksLikeBolt11(value: string): boolean {
  return /^ln/i.test(value) && !value.includes('@');
}
function looksLikeSpark(value: string): boolean {
  return /^(spark|sp)(rt|t)?1/i.test(value);
}

/** True when the text has the prefix of a Spark address of a supported network (its form aside). */
export function looksLikeSparkAddress(value: string): boolean {
  return looksLikeSpark(value);
}

/**
 * The network an address names by itself, when it does: a Spark address carries it in its prefix
 * (spark1… LAYER2_MAINNET; sparkt1…, sparkrt1… LAYER2_TESTNET). Other forms do not tell (a Solana
 * or EVM address is the same on main and test networks; a Lightning address or invoice can be paid
 * over Lightning or layer 2), so they answer undefined.
 */
export function cryptoNetworkOfAddress(address: string): CryptoNetwork | undefined {
  const m = /^(spark|sp)(rt|t)?1/i.exec(address);
  if (!m) return undefined;
  return m[2] ? 'LAYER2_TESTNET' : 'LAYER2_MAINNET';
}

/**
 * Lightning networks take a Lightning address or a BOLT11 invoice; layer-2 networks also take a
 * Spark address (Spark is a Bitcoin layer 2 that can pay and be paid over Lightning).
 */
function validateLightningLike(network: CryptoNetwork, address: string): string | null {
  const test = isTestNetwork(network);
  if (address.includes('@')) return validateLightningAddress(address);
  if (looksLikeBolt11(address)) return validateBolt11(address, test ? 'lnbcrt' : 'lnbc');
  if (network.startsWith('LAYER2_') && looksLikeSpark(address)) return validateSparkAddress(address, test);
  return network.startsWith('LAYER2_')
    ? 'address must be a Lightning address (user@domain), a BOLT11 invoice or a Spark address'
    : 'address must be a Lightning address (user@domain) or a BOLT11 invoice';
}

/** Dispatch on the account's cryptoNetwork. */
export function validateCryptoAddress(cryptoNetwork: string, address: string): string | null {
  if (!isCryptoNetwork(cryptoNetwork)) return `cryptoNetwork must be one of ${CRYPTO_NETWORKS.join(', ')}`;
  switch (cryptoNetwork) {
    case 'SOLANA_MAINNET':
    case 'SOLANA_DEVNET':
      return validateSolanaAddress(address);
    case 'ETHEREUM_MAINNET':
    case 'ETHEREUM_TESTNET':
    case 'BASE_MAINNET':
    case 'BASE_TESTNET':
      return validateEvmAddress(address);
    default:
      return validateLightningLike(cryptoNetwork, address);
  }
}

// ---------------------------------------------------------------- Bitcoin on-chain

/**
 * Bitcoin on-chain address (p2pkh, p2sh, p2wpkh, p2wsh, p2tr) for a network. Not attached to any
 * cryptoNetwork of the spec; kept for BTC on-chain funding or withdrawal should it be exposed.
 */
export function validateBitcoinAddress(address: string, network: 'mainnet' | 'testnet' | 'regtest' = 'mainnet'): string | null {
  const net = network === 'mainnet' ? BtcNetwork.mainnet : network === 'testnet' ? BtcNetwork.testnet : BtcNetwork.regtest;
  return validateBtc(address, net) ? null : `not a valid Bitcoin ${network} address`;
}
