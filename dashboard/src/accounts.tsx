import { Alert, Button, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api, describeError } from './api';
import { DateTime, IdText, TableScroll } from './components';
import { formatMoney, parseAmount, type Amount } from './money';
import { useSession } from './session';

export interface InternalAccount {
  id: string;
  /** Absent for the platform's own account. */
  customerId?: string;
  balance: Amount;
  fundingPaymentInstructions: Array<{ instructionsNotes?: string; accountOrWalletInfo: Record<string, unknown> & { accountType: string; reference?: string } }>;
  createdAt: string;
  updatedAt: string;
}

/** Sandbox money: POST /sandbox/internal-accounts/{id}/fund, amount typed in the account's currency. */
export function FundModal({
  account,
  onClose,
  onFunded,
}: {
  account: InternalAccount | undefined;
  onClose: () => void;
  onFunded: (a: InternalAccount) => void;
}) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [result, setResult] = useState<InternalAccount>();
  useEffect(() => {
    setText('');
    setError(undefined);
    setResult(undefined);
  }, [account?.id]);
  if (!account) return null;
  const currency = account.balance.currency;
  const minor = parseAmount(text, currency.decimals);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!account || minor === undefined) return;
    setBusy(true);
    setError(undefined);
    try {
      const funded = await api.post<InternalAccount>(`/sandbox/internal-accounts/${encodeURIComponent(account.id)}/fund`, { amount: minor });
      setResult(funded);
      onFunded(funded);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title={`Fund ${currency.code} account (sandbox)`}>
      <form onSubmit={submit}>
        <Stack>
          <Text size="sm" c="dimmed">
            Adds sandbox money to this account, as if a payment had arrived. Balance now: <b>{formatMoney((result ?? account).balance)}</b>
          </Text>
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          {result && (
            <Alert color="green" data-testid="fund-result">
              Funded. New balance: <b data-testid="funded-balance">{formatMoney(result.balance)}</b>
            </Alert>
          )}
          <TextInput
            label={`Amount in ${currency.name} (${currency.symbol})`}
            description={currency.decimals ? `Up to ${currency.decimals} decimal places` : 'Whole units only'}
            placeholder={currency.decimals ? `100.${'0'.repeat(currency.decimals)}` : '1000'}
            inputMode="decimal"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            error={text && minor === undefined ? `Enter a positive amount with at most ${currency.decimals} decimals` : undefined}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {result ? 'Close' : 'Cancel'}
            </Button>
            <Button type="submit" loading={busy} disabled={minor === undefined}>
              Add funds
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Internal accounts with their balances; a Fund button in the sandbox for users who may transact. */
export function AccountsTable({
  rows,
  onChanged,
  showOwner,
}: {
  rows: InternalAccount[];
  onChanged: () => void;
  showOwner?: (a: InternalAccount) => React.ReactNode;
}) {
  const { session, can } = useSession();
  const [funding, setFunding] = useState<InternalAccount>();
  const canFund = session.environment === 'SANDBOX' && can('TRANSACT');
  return (
    <>
      <TableScroll minWidth={640}>
        <Table verticalSpacing="sm" data-testid="accounts-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Currency</Table.Th>
              {showOwner && <Table.Th>Owner</Table.Th>}
              <Table.Th ta="right">Balance</Table.Th>
              <Table.Th>Funding reference</Table.Th>
              <Table.Th>Account</Table.Th>
              <Table.Th>Updated</Table.Th>
              {canFund && <Table.Th />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((a) => (
              <Table.Tr key={a.id} data-testid="account-row" data-currency={a.balance.currency.code}>
                <Table.Td>{a.balance.currency.code}</Table.Td>
                {showOwner && <Table.Td>{showOwner(a)}</Table.Td>}
                <Table.Td ta="right">
                  <Text fw={600} size="sm" data-testid="account-balance">
                    {formatMoney(a.balance)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="xs" ff="monospace">
                    {a.fundingPaymentInstructions[0]?.accountOrWalletInfo.reference ?? '—'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <IdText id={a.id} />
                </Table.Td>
                <Table.Td>
                  <DateTime value={a.updatedAt} />
                </Table.Td>
                {canFund && (
                  <Table.Td ta="right">
                    <Button size="xs" variant="light" color="orange" onClick={() => setFunding(a)} aria-label={`Fund ${a.balance.currency.code} account`}>
                      Fund
                    </Button>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
      <FundModal account={funding} onClose={() => setFunding(undefined)} onFunded={onChanged} />
    </>
  );
}
