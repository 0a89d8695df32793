import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text, Timeline, Title } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { api, isNotAvailable } from '../api';
import { DataState, DateTime, Empty, ErrorNotice, IdText, JsonBlock, Loading, NotAvailable, PageHeader, Pager, StatusBadge } from '../components';
import { useLoad, usePaged } from '../hooks';
import { formatAmount, formatMoney } from '../money';
import { linkProps } from '../router';
import type { Transaction } from '../transactions';
import { DeliveryTable, type Delivery } from './Webhooks';
import { SandboxHelpersCard } from '../sandbox-tools';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" data-testid={`field-${label}`}>
        {children ?? '—'}
      </Text>
    </div>
  );
}

interface Step {
  status: string;
  at: string;
  source: string;
}

/**
 * The status timeline from what the server recorded: creation (every transaction starts PENDING:
 * a quote waiting to be executed or funded, a transfer or an arriving payment not yet under way,
 * docs/payments.md), each status the webhooks of this transaction carried (in order), and the
 * current status.
 */
function timeline(t: Transaction, deliveries: Delivery[]): Step[] {
  const steps: Step[] = [];
  const seen = new Set<string>();
  const add = (status: string | undefined, at: string | undefined, source: string) => {
    if (!status || !at || seen.has(status)) return;
    seen.add(status);
    steps.push({ status, at, source });
  };
  const events = deliveries
    .filter((d) => !d.resendOf)
    .map((d) => ({
      tx: d.event.transaction as Partial<Transaction> | undefined,
      at: String(d.event.timestamp ?? d.createdAt),
      id: String(d.event.webhookId ?? d.id),
    }))
    // Statuses decided together (a payment settled at once) share a timestamp: their webhook ids,
    // time-ordered, keep the order they were emitted in.
    .sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
  add('PENDING', t.createdAt, 'created');
  for (const e of events) add(e.tx?.status, e.tx?.updatedAt ?? e.at, 'webhook');
  add(t.status, t.updatedAt ?? t.settledAt ?? t.createdAt, 'current');
  return steps;
}

/** A rate for people: at most 6 significant digits, never in exponent notation. */
const rateText = (n: number) => n.toLocaleString('en-US', { maximumSignificantDigits: 6 });

/**
 * The API's exchangeRate is sending units per receiving unit: "1 MXN = 0.0540541 USD", with the
 * other way round beside it ("1 USD = 18.5 MXN") since either can be the readable one.
 */
function exchangeRate(t: Transaction): ReactNode {
  const from = t.sentAmount?.currency.code;
  const to = t.receivedAmount?.currency.code;
  if (!t.exchangeRate || !from || !to) return null;
  if (from === to) return <>none (same currency)</>;
  return (
    <>
      1 {to} = {rateText(t.exchangeRate)} {from}
      <Text size="xs" c="dimmed">
        1 {from} = {rateText(1 / t.exchangeRate)} {to}
      </Text>
    </>
  );
}

/** Where the money came from or went to: an account, a UMA address or the payer's bank (JIT). */
function endpoint(end: Record<string, unknown> | undefined): ReactNode {
  if (!end) return null;
  const type = String(end.sourceType ?? end.destinationType ?? '');
  if (type === 'UMA_ADDRESS') return <>{typeof end.umaAddress === 'string' ? end.umaAddress : 'a UMA address'}</>;
  if (type === 'REALTIME_FUNDING') return <>the payer's bank, with the payment instructions</>;
  if (typeof end.accountId === 'string') return <IdText id={end.accountId} />;
  return null;
}

/** counterpartyInformation: what the other side told about itself (or the beneficiary). */
function counterparty(info: Record<string, unknown> | undefined): ReactNode {
  const entries = Object.entries(info ?? {});
  if (entries.length === 0) return null;
  const name = info?.FULL_NAME ?? info?.BUSINESS_NAME;
  const rest = entries.filter(([k]) => k !== 'FULL_NAME' && k !== 'BUSINESS_NAME');
  return (
    <>
      {name !== undefined && (
        <Text span size="sm" fw={600}>
          {String(name)}
        </Text>
      )}
      {rest.length > 0 && (
        <Text size="xs" c="dimmed">
          {rest.map(([k, v]) => `${k}: ${String(v)}`).join(' · ')}
        </Text>
      )}
    </>
  );
}

/** Statuses a payment leaves by itself; while in one, the page asks again every REFRESH_MS. */
const UNDER_WAY = new Set(['CREATED', 'PENDING', 'PROCESSING']);
const REFRESH_MS = 3_000;

export function TransactionDetailPage({ id }: { id: string }) {
  const loaded = useLoad(() => api.get<Transaction>(`/transactions/${encodeURIComponent(id)}`), [id]);
  const deliveries = usePaged<Delivery>('/webhooks/deliveries', { transactionId: id }, 50);
  const [open, setOpen] = useState<Delivery>();
  const t = loaded.data;
  const underWay = t !== undefined && UNDER_WAY.has(t.status);
  const { reload: reloadTransaction, loading } = loaded;
  const reloadDeliveries = deliveries.reload;
  // A payment under way updates itself (status, timeline, webhooks) until it is finished.
  useEffect(() => {
    if (!underWay || loading) return;
    const timer = setTimeout(() => {
      reloadTransaction();
      reloadDeliveries();
    }, REFRESH_MS);
    return () => clearTimeout(timer);
  }, [t, underWay, loading, reloadTransaction, reloadDeliveries]);
  if (loaded.error) {
    return (
      <>
        <Anchor {...linkProps('/transactions')} size="sm">
          ← Transactions
        </Anchor>
        <PageHeader title="Transaction" />
        {isNotAvailable(loaded.error) ? <NotAvailable what="Transactions" /> : <ErrorNotice error={loaded.error} onRetry={loaded.reload} />}
      </>
    );
  }
  if (!t) return <Loading label="Loading the transaction" />;
  const steps = timeline(t, deliveries.data?.data ?? []);
  const sending = t.sentAmount?.currency;
  return (
    <>
      <Anchor {...linkProps('/transactions')} size="sm">
        ← Transactions
      </Anchor>
      <PageHeader
        title={`${t.type === 'OUTGOING' ? 'Outgoing' : 'Incoming'} payment`}
        description={
          <Group gap="xs" component="span">
            <StatusBadge status={t.status} testId="transaction-status" />
            {t.failureReason && (
              <Badge color="red" variant="outline">
                {t.failureReason}
              </Badge>
            )}
            <Text span size="sm" c="dimmed">
              {t.id}
            </Text>
            {underWay && (
              <Text span size="xs" c="dimmed" data-testid="auto-refresh">
                · updates itself while under way
              </Text>
            )}
          </Group>
        }
      />
      <Stack>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Card withBorder padding="lg">
            <Title order={4} mb="sm">
              Amounts
            </Title>
            <SimpleGrid cols={{ base: 1, xs: 2 }}>
              <Field label="Sent">
                <Text fw={700} size="lg" data-testid="sent-amount">
                  {formatMoney(t.sentAmount)}
                </Text>
              </Field>
              <Field label="Received">
                <Text fw={700} size="lg">
                  {formatMoney(t.receivedAmount)}
                </Text>
              </Field>
              <Field label="Exchange rate">{exchangeRate(t)}</Field>
              <Field label="Fees">{t.fees !== undefined && sending ? formatAmount(t.fees, sending) : t.fees}</Field>
              <Field label="Customer">
                {t.customerId ? (
                  <Anchor size="sm" {...linkProps(`/customers/${encodeURIComponent(t.customerId)}`)}>
                    {t.platformCustomerId ?? t.customerId}
                  </Anchor>
                ) : null}
              </Field>
              <Field label="From">{endpoint(t.source)}</Field>
              <Field label="To">{endpoint(t.destination)}</Field>
              <Field label="Counterparty">{counterparty(t.counterpartyInformation)}</Field>
              <Field label="Quote">{t.quoteId ? <IdText id={t.quoteId} /> : null}</Field>
              <Field label="Reference">{t.reconciliationInstructions?.reference}</Field>
              <Field label="Description">{t.description}</Field>
              <Field label="Created">
                <DateTime value={t.createdAt} />
              </Field>
              <Field label="Settled">
                <DateTime value={t.settledAt} />
              </Field>
            </SimpleGrid>
          </Card>
          <Card withBorder padding="lg">
            <Title order={4} mb="sm">
              Status timeline
            </Title>
            <Timeline active={steps.length - 1} bulletSize={14} lineWidth={2} data-testid="timeline">
              {steps.map((s) => (
                <Timeline.Item key={s.status} title={s.status} data-testid="timeline-step">
                  <Text size="xs" c="dimmed">
                    <DateTime value={s.at} />
                    {s.source === 'created' ? ' · created' : ''}
                  </Text>
                </Timeline.Item>
              ))}
            </Timeline>
          </Card>
        </SimpleGrid>
        <SandboxHelpersCard
          transaction={t}
          onChanged={() => {
            reloadTransaction();
            reloadDeliveries();
          }}
        />
        {t.refund && (
          <Card withBorder padding="lg">
            <Title order={4} mb="sm">
              Refund
            </Title>
            <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }}>
              <Field label="Status">{t.refund.status && <StatusBadge status={t.refund.status} />}</Field>
              <Field label="Reason">{t.refund.reason}</Field>
              <Field label="Reference">{t.refund.reference}</Field>
              <Field label="Initiated">
                <DateTime value={t.refund.initiatedAt} />
              </Field>
              <Field label="Settled">
                <DateTime value={t.refund.settledAt} />
              </Field>
            </SimpleGrid>
          </Card>
        )}
        <Card withBorder padding="lg">
          <Title order={4} mb="sm">
            Webhook deliveries
          </Title>
          <DataState
            loading={deliveries.loading}
            error={deliveries.error}
            onRetry={deliveries.reload}
            what="Webhook deliveries"
            isEmpty={(deliveries.data?.data.length ?? 0) === 0}
            empty={<Empty title="No webhooks for this transaction yet">Each status change is sent to your webhook endpoint and logged here.</Empty>}
          >
            <DeliveryTable rows={deliveries.data?.data ?? []} onOpen={setOpen} />
            <Pager list={deliveries} />
          </DataState>
          {open && (
            <Card withBorder mt="sm" padding="sm">
              <Group justify="space-between">
                <Text fw={600} size="sm">
                  {open.type} · {open.status}
                </Text>
                <Anchor size="sm" onClick={() => setOpen(undefined)}>
                  Close
                </Anchor>
              </Group>
              <div data-testid="delivery-event">
                <JsonBlock value={open.event} maxHeight={240} />
              </div>
            </Card>
          )}
        </Card>
        {t.rateDetails && (
          <Card withBorder padding="lg">
            <Title order={4} mb="sm">
              Rate details
            </Title>
            <JsonBlock value={t.rateDetails} maxHeight={200} />
          </Card>
        )}
      </Stack>
    </>
  );
}
