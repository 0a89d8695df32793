import { Alert, Badge, Button, Checkbox, Code, Group, Modal, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api, describeError, SESSION_API } from '../api';
import { Copy, DataState, DateTime, Empty, PageHeader, Pager, TableScroll } from '../components';
import { usePaged } from '../hooks';
import { useSession, type Environment, type Permission, type Session } from '../session';

interface Token {
  id: string;
  name: string;
  permissions: Permission[];
  environment: Environment;
  clientId: string;
  clientSecret?: string;
  createdAt: string;
}

const PERMISSION_HELP: Record<Permission, string> = {
  VIEW: 'read everything',
  TRANSACT: 'quotes, payments, transfers, sandbox money',
  MANAGE: 'customers, accounts, tokens, configuration',
};

function CreateTokenModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: () => void }) {
  const { session, switchEnvironment } = useSession();
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<string[]>(['VIEW']);
  const [environment, setEnvironment] = useState<Environment>(session.environment);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [created, setCreated] = useState<Token>();
  const [switched, setSwitched] = useState<Environment>();

  function reset() {
    setName('');
    setPermissions(['VIEW']);
    setEnvironment(session.environment);
    setError(undefined);
    setCreated(undefined);
    setSwitched(undefined);
  }

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      // A token lives in its creator's environment: switch first when another one is chosen.
      if (environment !== session.environment) {
        await api.put<Session>(`${SESSION_API}/environment`, { environment });
        setSwitched(environment);
      }
      const token = await api.post<Token>('/tokens', { name: name.trim(), permissions });
      setCreated(token);
      onCreated();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  }

  async function close() {
    // The server-side session moved to another environment: the whole dashboard follows.
    const target = switched;
    onClose();
    reset();
    if (target && target !== session.environment) await switchEnvironment(target);
  }

  return (
    <Modal opened={opened} onClose={close} title={created ? 'Token created' : 'Create an API token'} size="lg">
      {created ? (
        <Stack>
          <Alert color="yellow" title="Copy the secret now">
            This is the only time the client secret is shown. Store it in your secret manager; if it is lost, revoke the token and create another.
          </Alert>
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              Client id
            </Text>
            <Group wrap="nowrap" gap="xs">
              <Code data-testid="new-client-id" style={{ wordBreak: 'break-all' }}>
                {created.clientId}
              </Code>
              <Copy value={created.clientId} />
            </Group>
          </Stack>
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              Client secret
            </Text>
            <Group wrap="nowrap" gap="xs">
              <Code data-testid="new-client-secret" style={{ wordBreak: 'break-all' }}>
                {created.clientSecret}
              </Code>
              {/* The form that had the focus is gone: the focus moves to what to do next. */}
              <Copy value={created.clientSecret ?? ''} label="Copy secret" autoFocus />
            </Group>
          </Stack>
          <Text size="sm" c="dimmed">
            Use them as HTTP Basic credentials: <Code>curl -u CLIENT_ID:CLIENT_SECRET {location.origin}/2025-10-13/ping</Code>
          </Text>
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit}>
          <Stack>
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <TextInput
              label="Name"
              description="What uses this token, e.g. payouts-service"
              required
              maxLength={100}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              data-autofocus
            />
            <Checkbox.Group label="Permissions" description="A token can hold only permissions you hold" value={permissions} onChange={setPermissions} required>
              <Stack gap={6} mt={6}>
                {(['VIEW', 'TRANSACT', 'MANAGE'] as Permission[]).map((p) => (
                  <Checkbox key={p} value={p} label={`${p} — ${PERMISSION_HELP[p]}`} />
                ))}
              </Stack>
            </Checkbox.Group>
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                Environment
              </Text>
              <SegmentedControl
                aria-label="Token environment"
                value={environment}
                onChange={(v) => setEnvironment(v as Environment)}
                data={[
                  { value: 'SANDBOX', label: 'Sandbox' },
                  { value: 'PRODUCTION', label: 'Production' },
                ]}
                color={environment === 'SANDBOX' ? 'orange' : 'blue'}
              />
              {environment !== session.environment && (
                <Text size="xs" c="dimmed">
                  The dashboard switches to {environment.toLowerCase()} to create it.
                </Text>
              )}
            </Stack>
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={busy} disabled={!name.trim() || permissions.length === 0}>
                Create token
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

export function TokensPage() {
  const { session, can } = useSession();
  const list = usePaged<Token>('/tokens', {});
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<Token>();
  const [revokeBusy, setRevokeBusy] = useState(false);
  const [revokeError, setRevokeError] = useState<string>();
  const manage = can('MANAGE');

  async function revoke() {
    if (!revoking) return;
    setRevokeBusy(true);
    setRevokeError(undefined);
    try {
      await api.del(`/tokens/${encodeURIComponent(revoking.id)}`);
      setRevoking(undefined);
      list.reload();
    } catch (err) {
      setRevokeError(describeError(err));
    } finally {
      setRevokeBusy(false);
    }
  }

  const rows = list.data?.data ?? [];
  return (
    <>
      <PageHeader
        title="API tokens"
        description={`Credentials for the API in ${session.environment.toLowerCase()}. Each token holds permissions; revoking one stops it at once.`}
        actions={manage && <Button onClick={() => setCreating(true)}>Create token</Button>}
      />
      {!manage ? (
        <Empty title="Tokens need the MANAGE permission">
          Your role ({session.user.role}) can't see or manage API tokens in this environment. Ask an admin of your platform.
        </Empty>
      ) : (
        <DataState
          loading={list.loading}
          error={list.error}
          onRetry={list.reload}
          what="API tokens"
          isEmpty={rows.length === 0}
          empty={
            <Empty title="No tokens in this environment">Create a token to call the API from your servers; its secret is shown once, when it is created.</Empty>
          }
        >
          <TableScroll>
            <Table highlightOnHover verticalSpacing="sm" data-testid="tokens-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Client id</Table.Th>
                  <Table.Th>Permissions</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((t) => (
                  <Table.Tr key={t.id} data-testid="token-row">
                    <Table.Td>{t.name}</Table.Td>
                    <Table.Td>
                      <Text ff="monospace" size="xs">
                        {t.clientId}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {t.permissions.map((p) => (
                          <Badge key={p} variant="light" size="sm">
                            {p}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <DateTime value={t.createdAt} />
                    </Table.Td>
                    <Table.Td ta="right">
                      <Button size="xs" color="red" variant="light" onClick={() => setRevoking(t)} aria-label={`Revoke ${t.name}`}>
                        Revoke
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
          <Pager list={list} />
        </DataState>
      )}
      <CreateTokenModal opened={creating} onClose={() => setCreating(false)} onCreated={list.reload} />
      <Modal opened={revoking !== undefined} onClose={() => setRevoking(undefined)} title="Revoke this token?">
        <Stack>
          {revokeError && (
            <Alert color="red" role="alert">
              {revokeError}
            </Alert>
          )}
          <Text size="sm">
            <b>{revoking?.name}</b> (<Code>{revoking?.clientId}</Code>) stops working immediately. Anything still using it gets 401. This cannot be undone.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(undefined)}>
              Cancel
            </Button>
            <Button color="red" loading={revokeBusy} onClick={revoke}>
              Revoke token
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
