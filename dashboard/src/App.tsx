import { AppShell, Badge, Box, Burger, Button, Center, em, Group, Menu, NavLink, SegmentedControl, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { api, ApiError, SESSION_API, setCsrfToken, whenSignedOut } from './api';
import { ErrorNotice, Loading } from './components';
import { AuditPage } from './pages/Audit';
import { BankPage } from './pages/Bank';
import { CustomerDetailPage } from './pages/CustomerDetail';
import { CustomersPage } from './pages/Customers';
import { OverviewPage } from './pages/Overview';
import { SandboxPage } from './pages/Sandbox';
import { SignInPage } from './pages/SignIn';
import { TokensPage } from './pages/Tokens';
import { TransactionDetailPage } from './pages/TransactionDetail';
import { TransactionsPage } from './pages/Transactions';
import { WebhooksPage } from './pages/Webhooks';
import { linkProps, match, navigate, usePath } from './router';
import { SessionContext, type Environment, type Permission, type Session } from './session';

const NAV = [
  { path: '/', label: 'Overview' },
  { path: '/transactions', label: 'Transactions' },
  { path: '/customers', label: 'Customers' },
  { path: '/tokens', label: 'API tokens' },
  { path: '/webhooks', label: 'Webhooks' },
  { path: '/sandbox', label: 'Sandbox tools', sandboxOnly: true },
  { path: '/audit', label: 'Audit log', adminOnly: true },
  // The operator's bank rails: production money only (the server also checks the platform).
  { path: '/bank', label: 'Bank', adminOnly: true, productionOnly: true },
];

/** Below Mantine's sm breakpoint (48em), where the navigation folds into the burger menu. */
const PHONE = `(max-width: ${em(767.98)})`;

function Page({ path }: { path: string }) {
  let p: Record<string, string> | undefined;
  if (path === '/') return <OverviewPage />;
  if (path === '/tokens') return <TokensPage />;
  if (path === '/webhooks') return <WebhooksPage />;
  if (path === '/customers') return <CustomersPage />;
  if ((p = match('/customers/:id', path))) return <CustomerDetailPage id={p.id} />;
  if (path === '/transactions') return <TransactionsPage />;
  if ((p = match('/transactions/:id', path))) return <TransactionDetailPage id={p.id} />;
  if (path === '/sandbox') return <SandboxPage />;
  if (path === '/audit') return <AuditPage />;
  if (path === '/bank') return <BankPage />;
  return (
    <Stack>
      <Text fw={600}>No such page</Text>
      <Button variant="light" w="fit-content" {...linkProps('/')} component="a">
        Go to the overview
      </Button>
    </Stack>
  );
}

function EnvironmentBadge({ environment }: { environment: Environment }) {
  return environment === 'SANDBOX' ? (
    <Badge color="orange" variant="filled" radius="sm" data-testid="env-badge" style={{ flexShrink: 0 }}>
      Sandbox
    </Badge>
  ) : (
    <Badge color="blue" variant="filled" radius="sm" data-testid="env-badge" style={{ flexShrink: 0 }}>
      Production
    </Badge>
  );
}

function EnvironmentSwitch({
  environment,
  onChange,
  busy,
  fullWidth,
}: {
  environment: Environment;
  onChange: (e: Environment) => void;
  busy: boolean;
  fullWidth?: boolean;
}) {
  return (
    <SegmentedControl
      size="xs"
      aria-label="Environment"
      fullWidth={fullWidth}
      disabled={busy}
      value={environment}
      onChange={(v) => onChange(v as Environment)}
      data={[
        { value: 'SANDBOX', label: 'Sandbox' },
        { value: 'PRODUCTION', label: 'Production' },
      ]}
      color={environment === 'SANDBOX' ? 'orange' : 'blue'}
    />
  );
}

function Shell({ session, onSession }: { session: Session; onSession: (s: Session | null) => void }) {
  const path = usePath();
  const [opened, { toggle, close }] = useDisclosure();
  // On a phone the switch gets a header row of its own; one switch is rendered, never two.
  const phone = useMediaQuery(PHONE, window.matchMedia(PHONE).matches, { getInitialValueInEffect: false });
  const [switching, setSwitching] = useState(false);
  const [switchError, setSwitchError] = useState<unknown>();

  const switchEnvironment = useCallback(
    async (environment: Environment) => {
      if (environment === session.environment) return;
      setSwitching(true);
      setSwitchError(undefined);
      try {
        onSession(await api.put<Session>(`${SESSION_API}/environment`, { environment }));
        if (environment !== 'SANDBOX' && path === '/sandbox') navigate('/', true);
      } catch (e) {
        setSwitchError(e);
      } finally {
        setSwitching(false);
      }
    },
    [session.environment, onSession, path],
  );

  const signOut = useCallback(async () => {
    try {
      await api.del(SESSION_API);
    } finally {
      onSession(null);
      navigate('/', true);
    }
  }, [onSession]);

  const value = useMemo(
    () => ({ session, switchEnvironment, signOut, can: (p: Permission) => session.permissions.includes(p) }),
    [session, switchEnvironment, signOut],
  );

  const sandbox = session.environment === 'SANDBOX';
  return (
    <SessionContext.Provider value={value}>
      {/* On a phone the header has a second row for the environment switch, so it stays in view. */}
      <AppShell header={{ height: { base: 100, sm: 64 } }} navbar={{ width: 230, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
        <AppShell.Header>
          <div className={sandbox ? 'env-bar-sandbox' : 'env-bar-production'} />
          <Group h={60} px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" />
              <UnstyledButton component="a" {...linkProps('/')} aria-label="Corridor overview">
                <Text fw={800} size="lg">
                  Corridor
                </Text>
              </UnstyledButton>
              <Text c="dimmed" size="sm" visibleFrom="md" truncate maw={220}>
                {session.platform.name}
              </Text>
            </Group>
            <Group gap="sm" wrap="nowrap">
              <EnvironmentBadge environment={session.environment} />
              {!phone && <EnvironmentSwitch environment={session.environment} onChange={switchEnvironment} busy={switching} />}
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <Button variant="default" size="xs" visibleFrom="xs" aria-label="Account">
                    {session.user.email}
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Label>
                    {session.user.role} · {session.platform.name}
                  </Menu.Label>
                  <Menu.Item onClick={signOut}>Sign out</Menu.Item>
                </Menu.Dropdown>
              </Menu>
            </Group>
          </Group>
          {phone && (
            <Box px="md">
              <EnvironmentSwitch environment={session.environment} onChange={switchEnvironment} busy={switching} fullWidth />
            </Box>
          )}
        </AppShell.Header>
        <AppShell.Navbar p="sm">
          <Stack gap={2}>
            {NAV.filter((item) => !item.adminOnly || session.user.role === 'ADMIN').map((item) => {
              const active = item.path === '/' ? path === '/' : path === item.path || path.startsWith(`${item.path}/`);
              const disabled = (item.sandboxOnly && !sandbox) || (item.productionOnly && sandbox);
              const link = (
                <NavLink
                  key={item.path}
                  component="a"
                  {...linkProps(item.path)}
                  onClick={(e) => {
                    linkProps(item.path).onClick(e);
                    close();
                  }}
                  label={item.label}
                  active={active}
                  disabled={disabled}
                  rightSection={
                    item.sandboxOnly ? (
                      <Badge size="xs" color="orange" variant="light">
                        sandbox
                      </Badge>
                    ) : item.productionOnly ? (
                      <Badge size="xs" color="blue" variant="light">
                        production
                      </Badge>
                    ) : undefined
                  }
                />
              );
              return disabled ? (
                <Tooltip
                  key={item.path}
                  label={item.productionOnly ? 'Switch to production to see the bank rails' : 'Switch to the sandbox to use these tools'}
                >
                  <div>{link}</div>
                </Tooltip>
              ) : (
                link
              );
            })}
          </Stack>
          <Box mt="auto" pt="md">
            <Text size="xs" c="dimmed" truncate>
              {session.user.email}
            </Text>
            <Button variant="subtle" size="compact-sm" px={0} onClick={signOut} hiddenFrom="xs">
              Sign out
            </Button>
          </Box>
        </AppShell.Navbar>
        <AppShell.Main>
          {switchError !== undefined && <ErrorNotice error={switchError} />}
          {/* The key remounts the page so every list reloads in the new environment. */}
          <Box key={session.environment} maw={1200}>
            <Page path={path} />
          </Box>
        </AppShell.Main>
      </AppShell>
    </SessionContext.Provider>
  );
}

export function App() {
  const [state, setState] = useState<{ session: Session | null; loading: boolean; error?: unknown }>({ session: null, loading: true });

  const setSession = useCallback((session: Session | null) => {
    setCsrfToken(session?.csrfToken ?? '');
    setState({ session, loading: false });
  }, []);

  const load = useCallback(() => {
    setState((s) => ({ ...s, loading: true, error: undefined }));
    api.get<Session>(SESSION_API).then(setSession, (e) => {
      if (e instanceof ApiError && e.status === 401) setSession(null);
      else setState({ session: null, loading: false, error: e });
    });
  }, [setSession]);

  useEffect(() => {
    load();
    whenSignedOut(() => setSession(null));
  }, [load, setSession]);

  if (state.loading && !state.session) return <Loading label="Loading the dashboard" />;
  if (state.error) {
    return (
      <Center p="xl">
        <ErrorNotice error={state.error} onRetry={load} />
      </Center>
    );
  }
  if (!state.session) return <SignInPage onSignedIn={setSession} />;
  return <Shell session={state.session} onSession={setSession} />;
}
