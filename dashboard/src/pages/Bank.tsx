import { Alert, Anchor, Badge, Button, Card, Group, Modal, SegmentedControl, SimpleGrid, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api, ApiError, describeError } from '../api';
import { DataState, DateTime, Empty, PageHeader, StatusBadge, TableScroll } from '../components';
import { useLoad } from '../hooks';
import { formatAmount } from '../money';

interface BankStatus {
  bankId: string;
  name: string;
  configured: boolean;
  queuedPayouts: number;
  filesByStatus: Record<string, number>;
  openExceptions: number;
  lastReportAt: string | null;
}

interface BankFile {
  id: string;
  bankId: string;
  format: string;
  name: string;
  status: string;
  currency: string;
  entryCount: number;
  totalAmount: number;
  builtAt: string;
  uploadedAt: string | null;
  acknowledgedAt: string | null;
  reason: string | null;
}

interface BankException {
  id: string;
  bankId: string;
  kind: string;
  status: string;
  currency: string | null;
  amount: number | null;
  reference: string | null;
  createdAt: string;
  ageSeconds: number;
  resolution: { action: string; note?: string; accountId?: string; by: { name: string }; at: string } | null;
}

const BANK_API = '/dashboard/api/bank';

/** Minor units in a currency's own decimals (ISO 4217 as the browser knows them). */
function money(minor: number | null, currency: string | null): string {
  if (minor === null || currency === null) return '—';
  let decimals = 2;
  try {
    decimals = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    /* not an ISO currency: two places */
  }
  return formatAmount(minor, { code: currency, name: currency, symbol: currency, decimals });
}

function age(seconds: number): string {
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
  return `${Math.floor(seconds / 86_400)} d ${Math.floor((seconds % 86_400) / 3600)} h`;
}

/** The resolve dialog: a note for any exception; an unmatched credit is applied to an account or sent back. */
function ResolveDialog({ exception, onClose, onResolved }: { exception: BankException; onClose: () => void; onResolved: () => void }) {
  const credit = exception.kind === 'UNMATCHED_CREDIT';
  const [action, setAction] = useState<'NOTE' | 'APPLY_TO' | 'SEND_BACK'>(credit ? 'APPLY_TO' : 'NOTE');
  const [note, setNote] = useState('');
  const [accountId, setAccountId] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const choices = credit
    ? [
        { value: 'APPLY_TO', label: 'Apply to an account' },
        { value: 'SEND_BACK', label: 'Send back' },
      ]
    : exception.kind === 'UNMATCHED_DEBIT'
      ? [
          { value: 'NOTE', label: 'Note' },
          { value: 'SEND_BACK', label: 'Pays back a credit' },
        ]
      : [{ value: 'NOTE', label: 'Note' }];

  const submit = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await api.post(`${BANK_API}/exceptions/${encodeURIComponent(exception.id)}/resolve`, {
        action,
        note: note.trim() || undefined,
        accountId: action === 'APPLY_TO' ? accountId.trim() : undefined,
      });
      onResolved();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={`Resolve ${exception.kind.toLowerCase().replaceAll('_', ' ')}`} size="lg">
      <Stack>
        <Text size="sm">
          {money(exception.amount, exception.currency)} at {exception.bankId}
          {exception.reference ? ` · reference ${exception.reference}` : ''}
        </Text>
        {choices.length > 1 && <SegmentedControl value={action} onChange={(v) => setAction(v as typeof action)} data={choices} aria-label="Resolution" />}
        {action === 'APPLY_TO' && (
          <TextInput
            label="Internal account"
            description="The PRODUCTION internal account (same currency) that receives it as a deposit"
            placeholder="InternalAccount:…"
            value={accountId}
            onChange={(e) => setAccountId(e.currentTarget.value)}
            data-testid="apply-to-account"
          />
        )}
        {action === 'SEND_BACK' && credit && (
          <Text size="sm" c="dimmed">
            Records that you return the money to its payer. Pay it back from the bank by your own means; its debit on a later statement is resolved with “Pays
            back a credit”.
          </Text>
        )}
        <Textarea
          label={action === 'NOTE' ? 'Why (required)' : 'Note'}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          maxLength={1000}
          autosize
          minRows={2}
          data-testid="resolve-note"
        />
        {error !== undefined && (
          <Alert color="red" title="Not resolved">
            {describeError(error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={busy} data-testid="resolve-submit">
            Resolve
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The operator's bank rails: the partner banks, their payout files and the exceptions queue (PRODUCTION, operator ADMINs). */
export function BankPage() {
  const [state, setState] = useState<'OPEN' | 'ALL'>('OPEN');
  const [resolving, setResolving] = useState<BankException>();
  const status = useLoad(() => api.get<{ data: BankStatus[] }>(`${BANK_API}/status`), []);
  const files = useLoad(() => api.get<{ data: BankFile[] }>(`${BANK_API}/files`, { limit: 100 }), []);
  const exceptions = useLoad(() => api.get<{ data: BankException[] }>(`${BANK_API}/exceptions`, { state, limit: 100 }), [state]);

  if (status.error instanceof ApiError && status.error.status === 403)
    return (
      <Stack>
        <PageHeader title="Bank" />
        <Alert color="gray" title="Not available to you here" data-testid="bank-forbidden">
          {status.error.message}
        </Alert>
      </Stack>
    );

  const fileRows = files.data?.data ?? [];
  const exceptionRows = exceptions.data?.data ?? [];
  return (
    <Stack>
      <PageHeader title="Bank" description="The partner banks of the production rails: the payout files sent to them and the breaks an operator must decide." />
      <DataState
        loading={status.loading}
        error={status.error}
        isEmpty={(status.data?.data ?? []).length === 0}
        what="Banks"
        onRetry={status.reload}
        empty={<Empty title="No partner bank is configured (BANKS_FILE)" />}
      >
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {(status.data?.data ?? []).map((b) => (
            <Card key={b.bankId} withBorder data-testid="bank-card">
              <Group justify="space-between">
                <Text fw={600}>{b.name}</Text>
                {!b.configured && <Badge color="gray">removed</Badge>}
              </Group>
              <Text size="sm">Queued payouts: {b.queuedPayouts}</Text>
              <Text size="sm">
                Files:{' '}
                {Object.entries(b.filesByStatus)
                  .map(([s, n]) => `${n} ${s.toLowerCase()}`)
                  .join(', ') || 'none'}
              </Text>
              <Text size="sm" c={b.openExceptions ? 'red' : undefined}>
                Open exceptions: {b.openExceptions}
              </Text>
              <Text size="sm" c="dimmed">
                Last report read: {b.lastReportAt ? <DateTime value={b.lastReportAt} /> : 'never'}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      </DataState>

      <Group justify="space-between" mt="md">
        <Text fw={600} size="lg">
          Exceptions
        </Text>
        <SegmentedControl
          size="xs"
          value={state}
          onChange={(v) => setState(v as 'OPEN' | 'ALL')}
          data={[
            { value: 'OPEN', label: 'Open' },
            { value: 'ALL', label: 'All' },
          ]}
          aria-label="Exceptions shown"
        />
      </Group>
      <DataState
        loading={exceptions.loading}
        error={exceptions.error}
        isEmpty={exceptionRows.length === 0}
        what="Exceptions"
        onRetry={exceptions.reload}
        empty={<Empty title="No exception: the banks and the ledger agree" />}
      >
        <TableScroll minWidth={900}>
          <Table striped highlightOnHover data-testid="exceptions-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Bank</Table.Th>
                <Table.Th>Amount</Table.Th>
                <Table.Th>Reference</Table.Th>
                <Table.Th>Age</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {exceptionRows.map((e) => (
                <Table.Tr key={e.id} data-testid="exception-row">
                  <Table.Td>{e.kind}</Table.Td>
                  <Table.Td>{e.bankId}</Table.Td>
                  <Table.Td>{money(e.amount, e.currency)}</Table.Td>
                  <Table.Td>{e.reference ?? '—'}</Table.Td>
                  <Table.Td title={e.createdAt}>{age(e.ageSeconds)}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={e.status} />
                    {e.resolution && (
                      <Text size="xs" c="dimmed">
                        {e.resolution.action.toLowerCase().replaceAll('_', ' ')} by {e.resolution.by.name}
                        {e.resolution.note ? `: ${e.resolution.note}` : ''}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {e.status === 'OPEN' && (
                      <Button size="compact-sm" variant="light" onClick={() => setResolving(e)}>
                        Resolve
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      </DataState>

      <Text fw={600} size="lg" mt="md">
        Files
      </Text>
      <DataState
        loading={files.loading}
        error={files.error}
        isEmpty={fileRows.length === 0}
        what="Files"
        onRetry={files.reload}
        empty={<Empty title="No payout file yet" />}
      >
        <TableScroll minWidth={1000}>
          <Table striped highlightOnHover data-testid="files-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>File</Table.Th>
                <Table.Th>Bank</Table.Th>
                <Table.Th>Format</Table.Th>
                <Table.Th>Entries</Table.Th>
                <Table.Th>Total</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Built</Table.Th>
                <Table.Th>Uploaded</Table.Th>
                <Table.Th>Acknowledged</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {fileRows.map((f) => (
                <Table.Tr key={f.id} data-testid="file-row">
                  <Table.Td>
                    {/* A plain link: the browser downloads the archived bytes with the session cookie. */}
                    <Anchor href={`${BANK_API}/files/${encodeURIComponent(f.id)}/content`} download={f.name}>
                      {f.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{f.bankId}</Table.Td>
                  <Table.Td>{f.format}</Table.Td>
                  <Table.Td>{f.entryCount}</Table.Td>
                  <Table.Td>{money(f.totalAmount, f.currency)}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={f.status} />
                    {f.reason && (
                      <Text size="xs" c="dimmed">
                        {f.reason}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <DateTime value={f.builtAt} />
                  </Table.Td>
                  <Table.Td>
                    <DateTime value={f.uploadedAt} />
                  </Table.Td>
                  <Table.Td>
                    <DateTime value={f.acknowledgedAt} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      </DataState>

      {resolving && (
        <ResolveDialog
          exception={resolving}
          onClose={() => setResolving(undefined)}
          onResolved={() => {
            setResolving(undefined);
            exceptions.reload();
            status.reload();
          }}
        />
      )}
    </Stack>
  );
}
