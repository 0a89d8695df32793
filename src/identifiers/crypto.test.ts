import { fc, test } from '@fast-check/vitest';
import { base58, bech32, bech32m } from '@scure/base';
import { describe, expect, it } from 'vitest';
import {
  CRYPTO_NETWORKS,
  CRYPTO_NETWORK_CURRENCIES,
  cryptoNetworkCarries,
  cryptoNetworkOfAddress,
  toChecksumAddress,
  validateBitcoinAddress,
  validateCryptoAddress,
  validateLightningAddress,
} from './crypto.js';

// BOLT #11 specification examples.
const BOLT11_DONATION =
  'lnbc1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6twvus8g6rfwvs8qun0dfjkxaq9qrsgq357wnc5r2ueh7ck6q93dj32dlqnls087fxdwk8qakdyafkq3yap9us6v52vjjsrvywa6rt52cm9r9zqt8r2t7mlcwspyetp5h2tztugp9lfyql';
const BOLT11_COFFEE =
  'lnbc2500u1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpu9qrsgquk0rl77nj30yxdy8j9vdx85fkpmdla2087ne0xh8nhedh8w27kyke0lp53ut353s06fv3qfegext0eh0ymjpf39tuven09sam30g4vgpfna3rh';
const SPARK_REGTEST = 'sparkrt1pgss9tadw7jj52mz8yu48tzcvq3kxsct69f55drud56rtnwgqpajyf0stj62w6';

describe('networks', () => {
  it('list every network with its currency', () => {
    expect(CRYPTO_NETWORKS).toHaveLength(10);
    expect(CRYPTO_NETWORK_CURRENCIES.LIGHTNING_MAINNET).toEqual(['BTC']);
    expect(CRYPTO_NETWORK_CURRENCIES.BASE_TESTNET).toEqual(['USDC']);
    expect(cryptoNetworkCarries('SOLANA_MAINNET', 'USDC')).toBe(true);
    expect(cryptoNetworkCarries('SOLANA_MAINNET', 'BTC')).toBe(false);
    expect(validateCryptoAddress('DOGE_MAINNET', 'x')).toMatch(/cryptoNetwork/);
  });
});

describe('Solana', () => {
  it('accepts 32-byte base58 keys', () => {
    expect(validateCryptoAddress('SOLANA_MAINNET', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toBeNull(); // USDC mint
    expect(validateCryptoAddress('SOLANA_DEVNET', '11111111111111111111111111111111')).toBeNull(); // system program
  });
  it('rejects other lengths and alphabets', () => {
    expect(validateCryptoAddress('SOLANA_MAINNET', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwy')).not.toBeNull();
    expect(validateCryptoAddress('SOLANA_MAINNET', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10')).not.toBeNull();
    expect(validateCryptoAddress('SOLANA_MAINNET', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).not.toBeNull();
  });
  test.prop([fc.uint8Array({ minLength: 32, maxLength: 32 })])('any 32 bytes encode to a valid address', (bytes) => {
    expect(validateCryptoAddress('SOLANA_MAINNET', base58.encode(bytes))).toBeNull();
  });
});

describe('EVM', () => {
  it('accepts EIP-55 vectors and single-case addresses', () => {
    for (const a of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
      '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    ]) {
      expect(validateCryptoAddress('ETHEREUM_MAINNET', a), a).toBeNull();
      expect(validateCryptoAddress('BASE_TESTNET', a.toLowerCase())).toBeNull();
    }
  });
  it('rejects a broken checksum and bad shapes', () => {
    expect(validateCryptoAddress('BASE_MAINNET', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toMatch(/EIP-55/);
    expect(validateCryptoAddress('BASE_MAINNET', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe')).not.toBeNull();
    expect(validateCryptoAddress('BASE_MAINNET', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).not.toBeNull();
  });
  test.prop([fc.uint8Array({ minLength: 20, maxLength: 20 })])('checksummed addresses validate', (bytes) => {
    const hex = `0x${Buffer.from(bytes).toString('hex')}`;
    expect(validateCryptoAddress('ETHEREUM_TESTNET', toChecksumAddress(hex))).toBeNull();
  });
});

describe('Lightning and layer 2', () => {
  it('accept Lightning addresses on every Lightning-like network', () => {
    for (const n of ['LIGHTNING_MAINNET', 'LIGHTNING_REGTEST', 'LAYER2_MAINNET', 'LAYER2_TESTNET']) {
      expect(validateCryptoAddress(n, 'satoshi@getalby.com')).toBeNull();
      expect(validateCryptoAddress(n, 'pay.me-now_1@sub.example.org')).toBeNull();
    }
    expect(validateLightningAddress('Satoshi@getalby.com')).toMatch(/lower case/);
    expect(validateLightningAddress('satoshi@localhost')).not.toBeNull();
    expect(validateLightningAddress('a@b@c.com')).not.toBeNull();
  });
  it('accept BOLT11 invoices of the matching network only', () => {
    expect(validateCryptoAddress('LIGHTNING_MAINNET', BOLT11_DONATION)).toBeNull();
    expect(validateCryptoAddress('LAYER2_MAINNET', BOLT11_COFFEE)).toBeNull();
    expect(validateCryptoAddress('LIGHTNING_MAINNET', BOLT11_COFFEE.toUpperCase())).toBeNull();
    expect(validateCryptoAddress('LIGHTNING_REGTEST', BOLT11_DONATION)).toMatch(/lnbcrt/);
    const broken = BOLT11_DONATION.slice(0, -1) + (BOLT11_DONATION.endsWith('l') ? 'q' : 'l');
    expect(validateCryptoAddress('LIGHTNING_MAINNET', broken)).toMatch(/bech32/);
  });
  it('accept a regtest invoice on regtest', () => {
    // the donation invoice's data re-encoded under lnbcrt (the structural check ignores the signature)
    const { words } = bech32.decode(BOLT11_DONATION as `${string}1${string}`, false);
    const regtest = bech32.encode('lnbcrt', words, false);
    expect(validateCryptoAddress('LIGHTNING_REGTEST', regtest)).toBeNull();
    expect(validateCryptoAddress('LAYER2_TESTNET', regtest)).toBeNull();
    expect(validateCryptoAddress('LIGHTNING_MAINNET', regtest)).toMatch(/lnbc/);
  });
  it('accept Spark addresses on layer-2 networks only', () => {
    expect(validateCryptoAddress('LAYER2_TESTNET', SPARK_REGTEST)).toBeNull();
    expect(validateCryptoAddress('LAYER2_MAINNET', SPARK_REGTEST)).toMatch(/prefix/);
    expect(validateCryptoAddress('LIGHTNING_REGTEST', SPARK_REGTEST)).not.toBeNull();
  });
  test.prop([fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constantFrom(2, 3), fc.constantFrom('spark', 'sp')])(
    'structurally valid Spark addresses validate on mainnet',
    (x, parity, hrp) => {
      const payload = new Uint8Array([0x0a, 0x21, parity, ...x]);
      expect(validateCryptoAddress('LAYER2_MAINNET', bech32m.encode(hrp, bech32m.toWords(payload), false))).toBeNull();
    },
  );
});

describe('Lightning address properties', () => {
  const user = fc.string({ unit: fc.constantFrom(...'abcxyz0189._-'), minLength: 1, maxLength: 30 });
  const label = fc.string({ unit: fc.constantFrom(...'abcxyz019'), minLength: 1, maxLength: 20 });
  test.prop([user, fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom('com', 'org', 'io')])(
    'user@host is accepted on every Lightning-like network',
    (u, labels, tld) => {
      const address = `${u}@${labels.join('.')}.${tld}`;
      for (const n of ['LIGHTNING_MAINNET', 'LIGHTNING_REGTEST', 'LAYER2_MAINNET', 'LAYER2_TESTNET']) expect(validateCryptoAddress(n, address)).toBeNull();
    },
  );
  test.prop([user, fc.constantFrom(...'ABZ+!#')])('a username with capitals or other symbols is refused', (u, c) => {
    expect(validateLightningAddress(`${u}${c}@example.com`)).not.toBeNull();
  });
});

describe('Bitcoin on-chain', () => {
  it('validates per network', () => {
    expect(validateBitcoinAddress('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBeNull();
    expect(validateBitcoinAddress('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')).toBeNull();
    expect(validateBitcoinAddress('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'testnet')).not.toBeNull();
  });
});

describe('the network an address names', () => {
  const key = new Uint8Array([0x0a, 0x21, 0x02, ...new Array(32).fill(7)]);
  const spark = (hrp: string) => bech32m.encode(hrp, bech32m.toWords(key), false);
  it('a Spark address names its network, and validates on it', () => {
    for (const [hrp, network] of [
      ['spark', 'LAYER2_MAINNET'],
      ['sp', 'LAYER2_MAINNET'],
      ['sparkt', 'LAYER2_TESTNET'],
      ['sparkrt', 'LAYER2_TESTNET'],
      ['spt', 'LAYER2_TESTNET'],
      ['sprt', 'LAYER2_TESTNET'],
    ] as const) {
      const address = spark(hrp);
      expect(cryptoNetworkOfAddress(address), hrp).toBe(network);
      expect(validateCryptoAddress(network, address), hrp).toBeNull();
    }
  });
  it('other forms name none', () => {
    for (const address of [
      'sandbox000@example.com',
      'lnbc1',
      '0x465Ba002d99dA89E459c88344452C86533273000',
      '28exRUM51NAVgece4HbHZ2W8iUSBy5QmJcZHSNyuFooo',
      spark('sparkl'),
      spark('sparks'),
    ]) {
      expect(cryptoNetworkOfAddress(address), address).toBeUndefined();
    }
  });
});
