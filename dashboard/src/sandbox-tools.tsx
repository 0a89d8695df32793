import { Alert, Badge, Button, Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { api, describeError, isNotAvailable } from './api';
import { ErrorNotice, Loading, NotAvailable } from './components';
import { useLoad } from './hooks';
import { useSession } from './session';
import type { Transaction } from './transactions';

interface SandboxClock {
  now: string;
  frozen: boolean;
  stepsRun?: number;
}

/** Jumps offered for the sandbox clock, in seconds (docs/testing.md). */
export const CLOCK_JUMPS: Array<{ value: string; label: string }> = [
  { value: '30', label: '30 seconds (a 005 return)' },
  { value: '301', label: '5 minutes 1 second (a quote expires)' },
  { value: '360', label: '6 minutes (a 003 payout completes)' },
  { value: '600', label: '10 minutes (the default approval window)' },
  { value: '3600', label: '1 hour' },
  { value: '86400', label: '1 day' },
  { value: '2592000', label: '30 days' },
];

/** The platform's sandbox clock: its time, advance by a chosen jump, freeze and unfreeze. */
export function SandboxClockCard() {
  const { can } = useSession();
  const clock = useLoad(() => api.get<SandboxClock>('/sandbox/clock'), []);
  const [jump, setJump] = useState<string>('360');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [ran, setRan] = useState<number>();

  async function act(fn: () => Promise<SandboxClock>) {
    setBusy(true);
    setError(undefined);
    setRan(undefined);
    try {
      const answer = await fn();
      if (answer.stepsRun !== undefined) setRan(answer.stepsRun);
      clock.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  if (clock.error) return isNotAvailable(clock.error) ? <NotAvailable what="The sandbox clock" /> : <ErrorNotice error={clock.error} onRetry={clock.reload} />;
  const c = clock.data;
  return (
    <Card withBorder padding="lg" data-testid="sandbox-clock">
      <Title order={4}>Sandbox clock</Title>
      <Text size="sm" c="dimmed" mb="sm">
        Your sandbox's own time: quotes, timed payouts and approval windows follow it. Advancing runs every timed step that falls due, at once (POST
        /sandbox/clock/advance).
      </Text>
      {!c ? (
        <Loading label="Reading the clock" />
      ) : (
        <Stack gap="sm">
          <Group gap="xs">
            <Text fw={700} size="lg" ff="monospace" data-testid="clock-now">
              {c.now}
            </Text>
            <Badge color={c.frozen ? 'blue' : 'green'} variant="light" data-testid="clock-state">
              {c.frozen ? 'Frozen' : 'Running'}
            </Badge>
          </Group>
          <Group align="end">
            <Select
              label="Advance by"
              data={CLOCK_JUMPS}
              value={jump}
              onChange={(v) => v && setJump(v)}
              allowDeselect={false}
              w={320}
              data-testid="clock-jump"
            />
            <Button
              loading={busy}
              disabled={!can('TRANSACT')}
              onClick={() => act(() => api.post<SandboxClock>('/sandbox/clock/advance', { seconds: Number(jump) }))}
            >
              Advance
            </Button>
            <Button
              variant="default"
              loading={busy}
              disabled={!can('TRANSACT')}
              onClick={() => act(() => api.post<SandboxClock>('/sandbox/clock', { frozen: !c.frozen }))}
            >
              {c.frozen ? 'Unfreeze' : 'Freeze'}
            </Button>
          </Group>
          {ran !== undefined && (
            <Text size="sm" data-testid="clock-steps">
              {ran === 1 ? '1 timed step ran' : `${ran} timed steps ran`}
            </Text>
          )}
          {error !== undefined && (
            <Alert color="red" role="alert">
              {describeError(error)}
            </Alert>
          )}
        </Stack>
      )}
    </Card>
  );
}

/** failureReason values /fail accepts (the API's list). */
const FAIL_REASONS = [
  'OFFRAMP_FAILED',
  'PAY_REQUEST_FAILED',
  'QUOTE_EXECUTION_FAILED',
  'COUNTERPARTY_POST_TX_FAILED',
  'LIGHTNING_PAYMENT_FAILED',
  'LNURLP_FAILED',
  'MISSING_MANDATORY_PAYEE_DATA',
];

/**
 * The sandbox's test helpers for one transaction: the next steps its status allows
 * (POST /sandbox/transactions/{id}/complete, /fail, /return, /approval-timeout).
 */
export function SandboxHelpersCard({ transaction: t, onChanged }: { transaction: Transaction; onChanged: () => void }) {
  const { session, can } = useSession();
  const [reason, setReason] = useState('OFFRAMP_FAILED');
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<unknown>();
  if (session.environment !== 'SANDBOX') return null;
  const actions: Array<{ action: string; label: string; body?: unknown; color?: string }> = [];
  if (t.status === 'PROCESSING') {
    actions.push({ action: 'complete', label: 'Complete now' });
    actions.push({ action: 'fail', label: 'Fail and refund', body: { failureReason: reason }, color: 'red' });
  }
  if (t.status === 'COMPLETED' && t.type === 'OUTGOING') actions.push({ action: 'return', label: 'Return the payout', color: 'orange' });
  if (t.status === 'PENDING' && t.type === 'INCOMING') actions.push({ action: 'approval-timeout', label: 'Close the approval window', color: 'orange' });
  if (actions.length === 0) return null;

  async function run(action: string, body?: unknown) {
    setBusy(action);
    setError(undefined);
    try {
      await api.post<Transaction>(`/sandbox/transactions/${encodeURIComponent(t.id)}/${action}`, body);
      onChanged();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <Card withBorder padding="lg" data-testid="sandbox-helpers">
      <Title order={4}>Sandbox test helpers</Title>
      <Text size="sm" c="dimmed" mb="sm">
        Force this payment's next step, as the rail would: same ledger, webhooks and history.
      </Text>
      <Group align="end">
        {t.status === 'PROCESSING' && (
          <Select label="Failure reason" data={FAIL_REASONS} value={reason} onChange={(v) => v && setReason(v)} allowDeselect={false} w={280} />
        )}
        {actions.map((a) => (
          <Button
            key={a.action}
            color={a.color}
            variant={a.color ? 'light' : 'filled'}
            loading={busy === a.action}
            disabled={!can('TRANSACT') || (busy !== undefined && busy !== a.action)}
            onClick={() => run(a.action, a.body)}
          >
            {a.label}
          </Button>
        ))}
      </Group>
      {error !== undefined && (
        <Alert color="red" role="alert" mt="sm">
          {describeError(error)}
        </Alert>
      )}
    </Card>
  );
}
