import { Badge, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api';
import { DataState, DateTime, Empty, PageHeader, TableScroll } from '../components';
import { useLoad } from '../hooks';

interface AuditEntry {
  id: string;
  createdAt: string;
  actorType: 'OPERATOR' | 'USER' | 'TOKEN';
  actor: string;
  action: string;
  target: string | null;
  source: string | null;
  environment: string | null;
  outcome: 'SUCCEEDED' | 'FAILED';
  statusCode: number | null;
}

const PAGE = 50;

/** The platform's audit log (ADMIN users): dashboard writes and the operator's commands about this platform. */
export function AuditPage() {
  const [action, setAction] = useState('');
  const [applied, setApplied] = useState('');
  // The `before` cursor of each page shown so far; the last one is the current page.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const before = cursors[cursors.length - 1];
  const list = useLoad(
    () => api.get<{ data: AuditEntry[]; nextBefore: string | null }>('/dashboard/api/audit', { limit: PAGE, before, action: applied || undefined }),
    [before, applied],
  );
  const rows = list.data?.data ?? [];

  return (
    <Stack>
      <PageHeader
        title="Audit log"
        description="Who changed what, when and from where: every write made in this dashboard and every operator command about this platform, newest first."
      />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(action.trim());
          setCursors([undefined]);
        }}
      >
        <Group align="end">
          <TextInput
            label="Action starts with"
            placeholder="POST /2025-10-13/customers"
            value={action}
            onChange={(e) => setAction(e.currentTarget.value)}
            w={320}
          />
          <Button type="submit" variant="light">
            Filter
          </Button>
        </Group>
      </form>
      <DataState
        loading={list.loading}
        error={list.error}
        isEmpty={rows.length === 0}
        what="Audit log"
        onRetry={list.reload}
        empty={<Empty title="No audit entries yet" />}
      >
        <TableScroll minWidth={900}>
          <Table striped highlightOnHover data-testid="audit-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>Target</Table.Th>
                <Table.Th>From</Table.Th>
                <Table.Th>Outcome</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>
                    <DateTime value={e.createdAt} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{e.actor}</Text>
                    <Text size="xs" c="dimmed">
                      {e.actorType === 'OPERATOR' ? 'operator' : e.actorType === 'TOKEN' ? 'API token' : 'dashboard user'}
                      {e.environment ? ` · ${e.environment.toLowerCase()}` : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {e.action}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {e.target ?? '—'}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{e.source ?? '—'}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={e.outcome === 'SUCCEEDED' ? 'green' : 'red'} variant="light">
                      {e.outcome === 'SUCCEEDED' ? 'succeeded' : 'failed'}
                      {e.statusCode ? ` · ${e.statusCode}` : ''}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
        <Group justify="flex-end">
          <Button variant="default" size="xs" disabled={cursors.length === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
            Newer
          </Button>
          <Button variant="default" size="xs" disabled={!list.data?.nextBefore} onClick={() => setCursors((c) => [...c, list.data!.nextBefore ?? undefined])}>
            Older
          </Button>
        </Group>
      </DataState>
    </Stack>
  );
}
