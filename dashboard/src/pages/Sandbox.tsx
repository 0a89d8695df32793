import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { AccountsTable, type InternalAccount } from '../accounts';
import { api, describeError, isNotAvailable } from '../api';
import { DataState, Empty, NotAvailable, PageHeader, Pager, StatusBadge } from '../components';
import { usePaged } from '../hooks';
import { formatMoney } from '../money';
import { linkProps } from '../router';
import { useSession } from '../session';
import type { Transaction } from '../transactions';
import { SandboxClockCard } from '../sandbox-tools';

/** Where the sandbox simulates a UMA payment arriving for a customer (docs/incoming-payments.md). */
export const SANDBOX_RECEIVE_PATH = '/sandbox/uma/receive';

function TransactionResult({ result }: { result: Transaction }) {
  return (
    <Alert color="green" title="Transaction created" data-testid="simulation-result">
      <Group gap="xs">
        <StatusBadge status={result.status} />
        <Text size="sm">{formatMoney(result.type === 'INCOMING' ? result.receivedAmount : result.sentAmount)}</Text>
        <Anchor size="sm" {...linkProps(`/transactions/${encodeURIComponent(result.id)}`)}>
          Follow it
        </Anchor>
      </Group>
    </Alert>
  );
}

function Simulation({
  title,
  description,
  path,
  fields,
  build,
}: {
  title: string;
  description: string;
  path: string;
  fields: Array<{ name: string; label: string; placeholder: string; required?: boolean; description?: string }>;
  build: (values: Record<string, string>) => Record<string, unknown>;
}) {
  const { can } = useSession();
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [result, setResult] = useState<Transaction>();

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    try {
      setResult(await api.post<Transaction>(path, build(values)));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card withBorder padding="lg" data-testid="simulation">
      <Title order={4}>{title}</Title>
      <Text size="sm" c="dimmed" mb="sm">
        {description}
      </Text>
      <form onSubmit={submit}>
        <Stack gap="sm">
          {fields.map((f) => (
            <TextInput
              key={f.name}
              label={f.label}
              description={f.description}
              placeholder={f.placeholder}
              required={f.required}
              value={values[f.name] ?? ''}
              onChange={(e) => {
                const v = e.currentTarget.value;
                setValues((old) => ({ ...old, [f.name]: v }));
              }}
            />
          ))}
          <Group>
            <Button type="submit" loading={busy} disabled={!can('TRANSACT')}>
              Simulate
            </Button>
          </Group>
          {error !== undefined &&
            (isNotAvailable(error) ? (
              <NotAvailable what="Payment simulations" />
            ) : (
              <Alert color="red" role="alert">
                {describeError(error)}
              </Alert>
            ))}
          {result && <TransactionResult result={result} />}
        </Stack>
      </form>
    </Card>
  );
}

const amountOf = (text: string | undefined) => (text && /^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined);

export function SandboxPage() {
  const { session } = useSession();
  const customerAccounts = usePaged<InternalAccount>('/customers/internal-accounts', {});
  const platformAccounts = usePaged<InternalAccount>('/platform/internal-accounts', {});
  if (session.environment !== 'SANDBOX') {
    return (
      <>
        <PageHeader title="Sandbox tools" />
        <Empty title="Sandbox tools work in the sandbox only">Switch to Sandbox at the top to fund accounts and simulate payments.</Empty>
      </>
    );
  }
  const owner = (a: InternalAccount) =>
    a.customerId ? (
      <Anchor size="sm" ff="monospace" {...linkProps(`/customers/${encodeURIComponent(a.customerId)}`)}>
        {a.customerId.slice(0, 17)}…
      </Anchor>
    ) : (
      <Text size="sm">Platform</Text>
    );
  return (
    <>
      <PageHeader title="Sandbox tools" description="Make sandbox money move: nothing here touches real funds." />
      <Stack>
        <SandboxClockCard />
        <Card withBorder padding="lg">
          <Title order={4}>Fund an internal account</Title>
          <Text size="sm" c="dimmed" mb="sm">
            Adds balance as if a bank transfer had arrived (POST /sandbox/internal-accounts/{'{id}'}/fund).
          </Text>
          <DataState
            loading={customerAccounts.loading}
            error={customerAccounts.error}
            onRetry={customerAccounts.reload}
            what="Internal accounts"
            isEmpty={(customerAccounts.data?.data.length ?? 0) === 0}
            empty={
              <Empty title="No customer accounts yet">
                Create a customer with currencies (POST /customers); each currency gets an internal account to fund.
              </Empty>
            }
          >
            <AccountsTable rows={customerAccounts.data?.data ?? []} onChanged={customerAccounts.reload} showOwner={owner} />
            <Pager list={customerAccounts} />
          </DataState>
          {(platformAccounts.data?.data.length ?? 0) > 0 && (
            <>
              <Text fw={600} size="sm" mt="md" mb="xs">
                Platform accounts
              </Text>
              <AccountsTable rows={platformAccounts.data?.data ?? []} onChanged={platformAccounts.reload} showOwner={owner} />
              <Pager list={platformAccounts} />
            </>
          )}
        </Card>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Simulation
            title="Simulate a JIT payment"
            description="Pays a quote funded by payment instructions, as the customer's bank would (POST /sandbox/send)."
            path="/sandbox/send"
            fields={[
              { name: 'quote', label: 'Quote id or payment reference', placeholder: 'Quote:… or the reference of its payment instructions', required: true },
              { name: 'currencyCode', label: 'Currency', placeholder: 'USD', required: true },
              {
                name: 'currencyAmount',
                label: 'Amount (smallest unit)',
                placeholder: 'empty: the quote amount',
                description: 'A different amount tests FUNDING_AMOUNT_MISMATCH',
              },
            ]}
            build={(v) => ({
              ...(/^Quote:/.test(v.quote?.trim() ?? '') ? { quoteId: v.quote.trim() } : { reference: v.quote?.trim() }),
              currencyCode: v.currencyCode?.trim().toUpperCase(),
              ...(amountOf(v.currencyAmount) === undefined ? {} : { currencyAmount: amountOf(v.currencyAmount) }),
            })}
          />
          <Simulation
            title="Simulate an incoming payment"
            description={`A UMA payment arriving for a customer from outside (POST ${SANDBOX_RECEIVE_PATH}).`}
            path={SANDBOX_RECEIVE_PATH}
            fields={[
              {
                name: 'receiverUmaAddress',
                label: "Customer's UMA address",
                placeholder: '$alice@…',
                required: true,
                description: 'Suffix 003 asks for approval, 004 and 005 fail the payment',
              },
              { name: 'currencyCode', label: 'Currency', placeholder: 'USD', required: true },
              { name: 'currencyAmount', label: 'Amount (smallest unit)', placeholder: '10000', required: true },
              { name: 'senderFullName', label: "Sender's full name", placeholder: 'needed when your configuration requires FULL_NAME' },
            ]}
            build={(v) => ({
              receiverUmaAddress: v.receiverUmaAddress?.trim(),
              currencyCode: v.currencyCode?.trim().toUpperCase(),
              currencyAmount: amountOf(v.currencyAmount),
              ...(v.senderFullName?.trim() ? { senderCustomerInfo: { FULL_NAME: v.senderFullName.trim() } } : {}),
            })}
          />
        </SimpleGrid>
      </Stack>
    </>
  );
}
