import { Alert, Badge, Button, Card, Drawer, Group, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api, describeError, isNotAvailable } from '../api';
import {
  Copy,
  DataState,
  DateTime,
  Empty,
  ErrorNotice,
  IdText,
  JsonBlock,
  Loading,
  NotAvailable,
  PageHeader,
  Pager,
  StatusBadge,
  TableScroll,
} from '../components';
import { useLoad, usePaged } from '../hooks';
import { linkProps } from '../router';
import { useSession } from '../session';

interface Config {
  environment: string;
  webhookEndpoint?: string;
  webhookPublicKey: string;
  umaDomain: string;
  updatedAt: string;
}

interface TestResult {
  deliveryId: string;
  webhookId: string;
  url: string;
  delivered: boolean;
  statusCode?: number;
  latencyMs?: number;
  error?: string;
  responseBody?: string;
}

interface Attempt {
  attemptNumber: number;
  attemptedAt: string;
  url: string;
  statusCode?: number;
  latencyMs?: number;
  error?: string;
  responseBody?: string;
}

export interface Delivery {
  id: string;
  webhookId: string;
  type: string;
  transactionId?: string;
  status: string;
  url?: string;
  attemptCount: number;
  nextAttemptAt?: string;
  deliveredAt?: string;
  resendOf?: string;
  createdAt: string;
  event: Record<string, unknown>;
  attempts: Attempt[];
}

function EndpointCard({ config, onSaved }: { config: Config; onSaved: (c: Config) => void }) {
  const { can, session } = useSession();
  const [url, setUrl] = useState(config.webhookEndpoint ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  useEffect(() => setUrl(config.webhookEndpoint ?? ''), [config.webhookEndpoint]);

  async function save(value: string | null) {
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      onSaved(await api.patch<Config>('/config', { webhookEndpoint: value }));
      setSaved(true);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card withBorder padding="lg">
      <Title order={4}>Endpoint</Title>
      <Text size="sm" c="dimmed" mb="sm">
        Corridor POSTs every event of {session.environment.toLowerCase()} here, signed, and retries for three days until your server answers 2xx.
        {session.environment === 'PRODUCTION' && ' Production endpoints must use https.'}
      </Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save(url.trim() || null);
        }}
      >
        <Stack gap="sm">
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          {saved && !error && (
            <Alert color="green" data-testid="endpoint-saved">
              Saved. New events go to this address.
            </Alert>
          )}
          <TextInput
            label="Webhook URL"
            placeholder="https://example.com/corridor/webhooks"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            disabled={!can('MANAGE')}
            maxLength={2048}
          />
          <Group>
            <Button type="submit" loading={busy} disabled={!can('MANAGE')}>
              Save
            </Button>
            {config.webhookEndpoint && (
              <Button variant="default" disabled={busy || !can('MANAGE')} onClick={() => void save(null)}>
                Stop sending
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function TestCard({ configured, onSent }: { configured: boolean; onSent: () => void }) {
  const { can } = useSession();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<TestResult>();
  const [error, setError] = useState<string>();

  async function send() {
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    try {
      setResult(await api.post<TestResult>('/webhooks/test', {}));
      onSent();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card withBorder padding="lg">
      <Title order={4}>Send a test event</Title>
      <Text size="sm" c="dimmed" mb="sm">
        Sends a signed TEST event to the endpoint now and shows what your server answered.
      </Text>
      <Stack gap="sm">
        <Group>
          <Button onClick={send} loading={busy} disabled={!configured || !can('MANAGE')}>
            Send test event
          </Button>
          {!configured && (
            <Text size="sm" c="dimmed">
              Set an endpoint first.
            </Text>
          )}
        </Group>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {result && (
          <Alert color={result.delivered ? 'green' : 'red'} title={result.delivered ? 'Delivered' : 'Not delivered'} data-testid="test-result">
            <Stack gap={4}>
              <Text size="sm">
                {result.url} answered {result.statusCode ?? 'nothing'}
                {result.latencyMs !== undefined && ` in ${result.latencyMs} ms`}
                {result.error && ` — ${result.error}`}
              </Text>
              {result.responseBody && <JsonBlock value={result.responseBody} maxHeight={120} />}
            </Stack>
          </Alert>
        )}
      </Stack>
    </Card>
  );
}

function DeliveryDrawer({ delivery, onClose, onResent }: { delivery: Delivery | undefined; onClose: () => void; onResent: () => void }) {
  const { can } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [resent, setResent] = useState<Delivery>();
  useEffect(() => {
    setError(undefined);
    setResent(undefined);
  }, [delivery?.id]);

  async function resend() {
    if (!delivery) return;
    setBusy(true);
    setError(undefined);
    try {
      setResent(await api.post<Delivery>(`/webhooks/deliveries/${encodeURIComponent(delivery.id)}/resend`));
      onResent();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Drawer opened={delivery !== undefined} onClose={onClose} position="right" size="xl" title={delivery ? `${delivery.type} delivery` : ''}>
      {delivery && (
        <Stack>
          <Group gap="xs">
            <StatusBadge status={delivery.status} />
            <Text size="sm" c="dimmed">
              {delivery.attemptCount} attempt{delivery.attemptCount === 1 ? '' : 's'}
            </Text>
            {delivery.transactionId && (
              <Button size="compact-xs" variant="subtle" component="a" {...linkProps(`/transactions/${encodeURIComponent(delivery.transactionId)}`)}>
                Open transaction
              </Button>
            )}
          </Group>
          <SimpleGrid cols={2} spacing="xs">
            <Text size="sm" c="dimmed">
              Delivery
            </Text>
            <IdText id={delivery.id} />
            <Text size="sm" c="dimmed">
              webhookId
            </Text>
            <IdText id={delivery.webhookId} />
            <Text size="sm" c="dimmed">
              Created
            </Text>
            <DateTime value={delivery.createdAt} />
            <Text size="sm" c="dimmed">
              Next attempt
            </Text>
            <DateTime value={delivery.nextAttemptAt} />
          </SimpleGrid>
          {delivery.status !== 'PENDING' && can('MANAGE') && (
            <Group>
              <Button variant="light" onClick={resend} loading={busy}>
                Resend
              </Button>
              {resent && (
                <Text size="sm" c="green">
                  Queued again as a new delivery.
                </Text>
              )}
            </Group>
          )}
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Title order={5}>Request body (the same on every attempt)</Title>
          <JsonBlock value={delivery.event} />
          <Title order={5}>Attempts</Title>
          {delivery.attempts.length === 0 ? (
            <Text size="sm" c="dimmed">
              {delivery.status === 'NO_ENDPOINT' ? 'Not sent: no endpoint was configured. Set one and resend.' : 'No attempt yet.'}
            </Text>
          ) : (
            delivery.attempts.map((a) => (
              <Card key={a.attemptNumber} withBorder padding="sm">
                <Group justify="space-between" mb={4}>
                  <Text size="sm" fw={600}>
                    Attempt {a.attemptNumber}
                  </Text>
                  <DateTime value={a.attemptedAt} />
                </Group>
                <Text size="sm">POST {a.url}</Text>
                <Text size="sm" component="div">
                  Response:{' '}
                  {a.statusCode !== undefined ? (
                    <Badge color={a.statusCode < 300 ? 'green' : 'red'} variant="light">
                      {a.statusCode}
                    </Badge>
                  ) : (
                    'none'
                  )}
                  {a.latencyMs !== undefined && ` after ${a.latencyMs} ms`}
                </Text>
                {a.error && (
                  <Text size="sm" c="red">
                    {a.error}
                  </Text>
                )}
                {a.responseBody && <JsonBlock value={a.responseBody} maxHeight={160} />}
              </Card>
            ))
          )}
        </Stack>
      )}
    </Drawer>
  );
}

export function DeliveryTable({ rows, onOpen }: { rows: Delivery[]; onOpen: (d: Delivery) => void }) {
  return (
    <TableScroll>
      <Table highlightOnHover verticalSpacing="xs" data-testid="deliveries-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Event</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Attempts</Table.Th>
            <Table.Th>Last answer</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((d) => {
            const last = d.attempts[d.attempts.length - 1];
            return (
              <Table.Tr key={d.id} data-testid="delivery-row">
                <Table.Td>{d.type}</Table.Td>
                <Table.Td>
                  <StatusBadge status={d.status} />
                </Table.Td>
                <Table.Td>{d.attemptCount}</Table.Td>
                <Table.Td>{last ? (last.statusCode ?? last.error ?? '—') : '—'}</Table.Td>
                <Table.Td>
                  <DateTime value={d.createdAt} />
                </Table.Td>
                <Table.Td ta="right">
                  <Button size="xs" variant="subtle" onClick={() => onOpen(d)}>
                    Details
                  </Button>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </TableScroll>
  );
}

function DeliveryLog({ version }: { version: number }) {
  const [type, setType] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [transactionId, setTransactionId] = useState('');
  const [open, setOpen] = useState<Delivery>();
  const txFilter = /^Transaction:[0-9a-f-]{36}$/i.test(transactionId.trim()) ? transactionId.trim() : undefined;
  const list = usePaged<Delivery>('/webhooks/deliveries', { type, status, transactionId: txFilter });
  useEffect(() => {
    if (version > 0) list.reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [version]);
  const rows = list.data?.data ?? [];
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="sm">
        <Title order={4}>Delivery log</Title>
        <Button size="xs" variant="default" onClick={list.reload} loading={list.loading}>
          Refresh
        </Button>
      </Group>
      <Group mb="sm" gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Event type"
          placeholder="Any"
          clearable
          data={['OUTGOING_PAYMENT', 'INCOMING_PAYMENT', 'CUSTOMER', 'INVITATION', 'BULK_UPLOAD', 'TEST']}
          value={type}
          onChange={setType}
          w={200}
        />
        <Select
          label="Status"
          placeholder="Any"
          clearable
          data={['PENDING', 'DELIVERED', 'FAILED', 'NO_ENDPOINT']}
          value={status}
          onChange={setStatus}
          w={170}
        />
        <TextInput
          label="Transaction"
          placeholder="Transaction:…"
          value={transactionId}
          onChange={(e) => setTransactionId(e.currentTarget.value)}
          error={transactionId.trim() && !txFilter ? 'Paste a full Transaction id' : undefined}
          w={300}
        />
      </Group>
      <DataState
        loading={list.loading}
        error={list.error}
        onRetry={list.reload}
        what="Webhook deliveries"
        isEmpty={rows.length === 0}
        empty={
          <Empty title="No deliveries yet">
            {type || status || txFilter ? 'Nothing matches these filters.' : 'Events appear here as they are sent. Send a test event to see one.'}
          </Empty>
        }
      >
        <DeliveryTable rows={rows} onOpen={setOpen} />
        <Pager list={list} />
      </DataState>
      <DeliveryDrawer delivery={open} onClose={() => setOpen(undefined)} onResent={list.reload} />
    </Card>
  );
}

export function WebhooksPage() {
  const loaded = useLoad(() => api.get<Config>('/config'), []);
  const [config, setConfig] = useState<Config>();
  const [version, setVersion] = useState(0);
  useEffect(() => setConfig(loaded.data), [loaded.data]);

  if (loaded.error) {
    return (
      <>
        <PageHeader title="Webhooks" />
        {isNotAvailable(loaded.error) ? <NotAvailable what="Webhooks" /> : <ErrorNotice error={loaded.error} onRetry={loaded.reload} />}
      </>
    );
  }
  if (!config) return <Loading label="Loading the webhook settings" />;
  return (
    <>
      <PageHeader title="Webhooks" description="Where Corridor sends events, how to verify them, and what happened to each delivery." />
      <Stack>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <EndpointCard config={config} onSaved={setConfig} />
          <TestCard configured={config.webhookEndpoint !== undefined} onSent={() => setVersion((v) => v + 1)} />
        </SimpleGrid>
        <Card withBorder padding="lg">
          <Group justify="space-between" mb="xs">
            <Title order={4}>Public key</Title>
            <Copy value={config.webhookPublicKey} label="Copy public key" />
          </Group>
          <Text size="sm" c="dimmed" mb="sm">
            Verify the X-Corridor-Signature header of each webhook with this Ed25519 key (signature of "timestamp.body"; refuse ones older than five minutes).
          </Text>
          <JsonBlock value={config.webhookPublicKey} maxHeight={140} />
        </Card>
        <DeliveryLog version={version} />
      </Stack>
    </>
  );
}
