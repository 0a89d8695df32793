import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { api, ApiError, SESSION_API } from '../api';
import type { Session } from '../session';

export function SignInPage({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onSignedIn(await api.post<Session>(SESSION_API, { email, password }));
    } catch (err) {
      const seconds = Number(err instanceof ApiError ? (err.details?.retryAfterSeconds ?? 0) : 0);
      const wait = seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
      if (err instanceof ApiError && err.code === 'TOO_MANY_ATTEMPTS') {
        setError(`Too many wrong passwords. Try again in ${wait}.`);
      } else if (err instanceof ApiError && err.code === 'TOO_MANY_SIGN_INS') {
        setError(`Too many sign-in attempts. Try again in ${wait}.`);
      } else if (err instanceof ApiError && err.code === 'SIGN_IN_BUSY') {
        setError('Many sign-ins are being checked right now. Try again in a moment.');
      } else if (err instanceof ApiError && err.status === 401) {
        setError('Wrong email or password.');
      } else {
        setError(err instanceof Error ? err.message : String(err));
      }
      setPassword('');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={400} component="form" onSubmit={submit} aria-label="Sign in">
        <Stack>
          <div>
            <Title order={2}>Corridor</Title>
            <Text c="dimmed" size="sm">
              Sign in to your platform's dashboard
            </Text>
          </div>
          {error && (
            <Alert color="red" role="alert" data-testid="sign-in-error">
              {error}
            </Alert>
          )}
          <TextInput label="Email" type="email" autoComplete="username" required autoFocus value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
          <PasswordInput label="Password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
          <Button type="submit" loading={busy} fullWidth>
            Sign in
          </Button>
          <Text size="xs" c="dimmed">
            The first admin's password is printed when the server first starts and saved in credentials.json in its data directory. More users:{' '}
            <code>npx corridor user create</code>.
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
