import { BarChart, LineChart } from '@mantine/charts';
import { Card, Group, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { api, isNotAvailable, type Page } from '../api';
import type { InternalAccount } from '../accounts';
import { Empty, ErrorNotice, Loading, NotAvailable, PageHeader } from '../components';
import { useLoad } from '../hooks';
import { formatAmount, type Currency } from '../money';
import type { Transaction } from '../transactions';

const MAX_PAGES = 20; // at most 2,000 rows are summed in the browser; the page says when there are more
const DAYS = 30;

async function walk<T>(path: string, query: Record<string, string | undefined> = {}): Promise<{ rows: T[]; complete: boolean; total: number }> {
  const rows: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page: Page<T> = await api.get<Page<T>>(path, { ...query, limit: 100, cursor });
    rows.push(...page.data);
    if (!page.hasMore || !page.nextCursor) return { rows, complete: true, total: page.totalCount };
    cursor = page.nextCursor;
  }
  return { rows, complete: false, total: rows.length };
}

/** Sums of minor units are bigint: JSON amounts are exact, and so must their totals be. */
interface Balance {
  currency: Currency;
  platform: bigint;
  customers: bigint;
  accounts: number;
}

function balancesOf(platform: InternalAccount[], customers: InternalAccount[]): Balance[] {
  const by = new Map<string, Balance>();
  const add = (a: InternalAccount, who: 'platform' | 'customers') => {
    const b = by.get(a.balance.currency.code) ?? { currency: a.balance.currency, platform: 0n, customers: 0n, accounts: 0 };
    b[who] += BigInt(a.balance.amount);
    b.accounts += 1;
    by.set(a.balance.currency.code, b);
  };
  platform.forEach((a) => add(a, 'platform'));
  customers.forEach((a) => add(a, 'customers'));
  const total = (b: Balance) => b.customers + b.platform;
  return [...by.values()].sort((x, y) => (total(y) > total(x) ? 1 : total(y) < total(x) ? -1 : x.currency.code.localeCompare(y.currency.code)));
}

const FINISHED_OK = new Set(['COMPLETED']);
const FINISHED_BAD = new Set(['FAILED', 'REJECTED', 'REFUNDED', 'EXPIRED']);

function Balances() {
  const loaded = useLoad(async () => {
    const [platform, customers] = await Promise.all([
      walk<InternalAccount>('/platform/internal-accounts'),
      walk<InternalAccount>('/customers/internal-accounts'),
    ]);
    return { balances: balancesOf(platform.rows, customers.rows), complete: platform.complete && customers.complete };
  }, []);
  if (loaded.error)
    return isNotAvailable(loaded.error) ? <NotAvailable what="Internal accounts" /> : <ErrorNotice error={loaded.error} onRetry={loaded.reload} />;
  if (!loaded.data) return <Loading label="Loading balances" />;
  const { balances, complete } = loaded.data;
  const shown = balances.filter((b) => b.platform !== 0n || b.customers !== 0n);
  if (shown.length === 0) {
    return (
      <Empty title="No money held yet">
        Balances appear when accounts are funded. In the sandbox, fund an account from Sandbox tools or a customer's page.
      </Empty>
    );
  }
  return (
    <>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} data-testid="balances">
        {shown.map((b) => (
          <Card key={b.currency.code} withBorder padding="md" data-testid="balance-card" data-currency={b.currency.code}>
            <Text size="xs" c="dimmed">
              {b.currency.name}
            </Text>
            <Text fw={700} size="xl">
              {formatAmount(b.platform + b.customers, b.currency)}
            </Text>
            <Text size="xs" c="dimmed">
              customers {formatAmount(b.customers, b.currency)} · platform {formatAmount(b.platform, b.currency)}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      {!complete && (
        <Text size="xs" c="dimmed" mt="xs">
          Summed over the first {MAX_PAGES * 100} accounts of each kind.
        </Text>
      )}
    </>
  );
}

function Activity() {
  const since = useMemo(() => new Date(Date.now() - DAYS * 86_400_000), []);
  const loaded = useLoad(() => walk<Transaction>('/transactions', { createdAfter: since.toISOString() }), [since]);
  const [currency, setCurrency] = useState<string | null>(null);

  const series = useMemo(() => {
    const rows = loaded.data?.rows ?? [];
    const currencies = new Map<string, Currency>();
    const counts = new Map<string, number>();
    for (const t of rows) {
      if (!t.sentAmount) continue;
      currencies.set(t.sentAmount.currency.code, t.sentAmount.currency);
      counts.set(t.sentAmount.currency.code, (counts.get(t.sentAmount.currency.code) ?? 0) + 1);
    }
    // By default the currency most payments were sent in.
    const busiest = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    const chosen = currency && currencies.has(currency) ? currency : busiest;
    const days: Array<{ day: string; volume: bigint; payments: number; ok: number; bad: number }> = [];
    for (let i = DAYS - 1; i >= 0; i--) {
      const d = new Date(Date.now() - i * 86_400_000);
      days.push({ day: d.toISOString().slice(0, 10), volume: 0n, payments: 0, ok: 0, bad: 0 });
    }
    const byDay = new Map(days.map((d) => [d.day, d]));
    let volume = 0n;
    for (const t of rows) {
      const d = byDay.get(t.createdAt.slice(0, 10));
      if (!d) continue;
      d.payments += 1;
      if (FINISHED_OK.has(t.status)) d.ok += 1;
      if (FINISHED_BAD.has(t.status)) d.bad += 1;
      if (chosen && t.sentAmount?.currency.code === chosen) {
        d.volume += BigInt(t.sentAmount.amount);
        volume += BigInt(t.sentAmount.amount);
      }
    }
    const unit = chosen ? currencies.get(chosen)! : undefined;
    const scale = unit ? 10 ** unit.decimals : 1;
    return {
      currencies: [...currencies.keys()],
      chosen,
      unit,
      total: rows.length,
      volume,
      data: days.map((d) => ({
        day: d.day.slice(5),
        // The chart's scale only: a float is fine for a bar's height, never for a total shown as money.
        volume: Number(d.volume) / scale,
        payments: d.payments,
        successRate: d.ok + d.bad > 0 ? Math.round((1000 * d.ok) / (d.ok + d.bad)) / 10 : null,
      })),
    };
  }, [loaded.data, currency]);

  if (loaded.error) return isNotAvailable(loaded.error) ? <NotAvailable what="Transactions" /> : <ErrorNotice error={loaded.error} onRetry={loaded.reload} />;
  if (!loaded.data) return <Loading label="Loading payments" />;
  if (series.total === 0)
    return <Empty title={`No payments in the last ${DAYS} days`}>Payment volume and success rate are charted here once payments flow.</Empty>;
  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {series.total} payments in the last {DAYS} days{loaded.data.complete ? '' : ` (the first ${MAX_PAGES * 100})`}
        </Text>
        <Select
          aria-label="Volume currency"
          size="xs"
          data={series.currencies}
          value={series.chosen ?? null}
          onChange={setCurrency}
          w={120}
          allowDeselect={false}
        />
      </Group>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          Volume sent ({series.unit?.code})
        </Text>
        {series.unit && (
          <Text size="sm" c="dimmed" data-testid="volume-total">
            {formatAmount(series.volume, series.unit)} sent
          </Text>
        )}
      </Group>
      <BarChart
        h={220}
        data={series.data}
        dataKey="day"
        series={[{ name: 'volume', label: `Sent (${series.unit?.symbol ?? ''})`, color: 'blue.6' }]}
        tickLine="y"
      />
      <Text size="sm" fw={600}>
        Success rate (completed among finished payments)
      </Text>
      <LineChart
        h={180}
        data={series.data}
        dataKey="day"
        series={[{ name: 'successRate', label: 'Success %', color: 'teal.6' }]}
        yAxisProps={{ domain: [0, 100] }}
        unit="%"
        connectNulls
        curveType="linear"
      />
    </Stack>
  );
}

export function OverviewPage() {
  return (
    <>
      <PageHeader title="Overview" description="Money held per currency and how payments are going." />
      <Stack gap="xl">
        <div>
          <Title order={4} mb="sm">
            Balances
          </Title>
          <Balances />
        </div>
        <Card withBorder padding="lg">
          <Title order={4} mb="sm">
            Payments
          </Title>
          <Activity />
        </Card>
      </Stack>
    </>
  );
}
