import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Center,
  Code,
  CopyButton,
  Group,
  Loader,
  Paper,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { describeError, isNotAvailable } from './api';
import type { Paged } from './hooks';

export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-start" mb="lg" wrap="wrap" gap="sm">
      <div>
        <Title order={2}>{title}</Title>
        {description && (
          <Text component="div" c="dimmed" size="sm" mt={4}>
            {description}
          </Text>
        )}
      </div>
      {actions && <Group gap="sm">{actions}</Group>}
    </Group>
  );
}

export function ErrorNotice({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <Alert color="red" title="Something went wrong" role="alert">
      <Stack gap="xs">
        <Text size="sm">{describeError(error)}</Text>
        {onRetry && (
          <Group>
            <Button size="xs" variant="light" color="red" onClick={onRetry}>
              Try again
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

/** What the page shows when the server has no such route yet (a feature of a later version). */
export function NotAvailable({ what }: { what: string }) {
  return (
    <Paper withBorder p="xl" radius="md" data-testid="not-available">
      <Stack align="center" gap={6}>
        <Text fw={600}>{what} are not available on this server yet</Text>
        <Text c="dimmed" size="sm" ta="center" maw={520}>
          This Corridor server does not offer this part of the API. Upgrade the server to a version that does; nothing is shown until then.
        </Text>
      </Stack>
    </Paper>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Paper withBorder p="xl" radius="md" data-testid="empty">
      <Stack align="center" gap={6}>
        <Text fw={600}>{title}</Text>
        {children && (
          <Text c="dimmed" size="sm" ta="center" maw={560} component="div">
            {children}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <Center py="xl" aria-busy="true">
      <Group gap="xs">
        <Loader size="sm" />
        <Text c="dimmed" size="sm">
          {label}…
        </Text>
      </Group>
    </Center>
  );
}

/**
 * The four states of anything loaded: loading (first time), error (with retry), not available
 * (route missing on this server), empty — else the content.
 */
export function DataState({
  loading,
  error,
  isEmpty,
  empty,
  what,
  onRetry,
  children,
}: {
  loading: boolean;
  error: unknown;
  isEmpty: boolean;
  empty: ReactNode;
  what: string;
  onRetry?: () => void;
  children: ReactNode;
}) {
  if (error) return isNotAvailable(error) ? <NotAvailable what={what} /> : <ErrorNotice error={error} onRetry={onRetry} />;
  if (loading && isEmpty) return <Loading label={`Loading ${what.toLowerCase()}`} />;
  if (isEmpty) return <>{empty}</>;
  return <>{children}</>;
}

export function Pager<T>({ list }: { list: Paged<T> }) {
  const page = list.data;
  if (!page) return null;
  const hasPrevious = list.pageNumber > 1;
  if (!hasPrevious && !page.hasMore) {
    return (
      <Text size="sm" c="dimmed" mt="sm">
        {page.totalCount} {page.totalCount === 1 ? 'item' : 'items'}
      </Text>
    );
  }
  return (
    <Group justify="space-between" mt="sm">
      <Text size="sm" c="dimmed">
        Page {list.pageNumber} · {page.totalCount} items
      </Text>
      <Group gap="xs">
        <Button size="xs" variant="default" disabled={!hasPrevious || list.loading} onClick={list.previous}>
          Previous
        </Button>
        <Button size="xs" variant="default" disabled={!page.hasMore || list.loading} onClick={list.next}>
          Next
        </Button>
      </Group>
    </Group>
  );
}

const STATUS_COLORS: Record<string, string> = {
  APPROVED: 'green',
  COMPLETED: 'green',
  DELIVERED: 'green',
  ACTIVE: 'green',
  MATCHED: 'green',
  PENDING: 'yellow',
  PROCESSING: 'blue',
  CREATED: 'gray',
  UNVERIFIED: 'gray',
  UNDER_REVIEW: 'yellow',
  NO_ENDPOINT: 'gray',
  PARTIAL_MATCH: 'yellow',
  REJECTED: 'red',
  FAILED: 'red',
  NOT_MATCHED: 'red',
  EXPIRED: 'gray',
  REFUNDED: 'orange',
  INACTIVE: 'gray',
};

export function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  // min-width: a squeezed table column must not cut the status to "APPR…".
  return (
    <Badge color={STATUS_COLORS[status] ?? 'gray'} variant="light" radius="sm" data-testid={testId} style={{ minWidth: 'max-content' }}>
      {status}
    </Badge>
  );
}

export function Copy({ value, label = 'Copy', autoFocus }: { value: string; label?: string; autoFocus?: boolean }) {
  return (
    <CopyButton value={value} timeout={1500}>
      {({ copied, copy }) => (
        <Button size="xs" variant={copied ? 'filled' : 'light'} color={copied ? 'teal' : 'blue'} onClick={copy} autoFocus={autoFocus}>
          {copied ? 'Copied' : label}
        </Button>
      )}
    </CopyButton>
  );
}

export function IdText({ id }: { id: string }) {
  const short = id.length > 22 ? `${id.slice(0, id.indexOf(':') + 9)}…` : id;
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip label={id} openDelay={300}>
        <Text ff="monospace" size="xs">
          {short}
        </Text>
      </Tooltip>
      <CopyButton value={id} timeout={1200}>
        {({ copied, copy }) => (
          <ActionIcon size="xs" variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`Copy ${id}`}>
            <svg width="12" height="12" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
              {copied ? (
                <path d="M5 12l5 5L20 7" />
              ) : (
                <>
                  <rect x="9" y="9" width="11" height="11" rx="2" />
                  <path d="M5 15V5a2 2 0 0 1 2-2h10" />
                </>
              )}
            </svg>
          </ActionIcon>
        )}
      </CopyButton>
    </Group>
  );
}

export function DateTime({ value }: { value: string | null | undefined }) {
  if (!value) return <Text span>—</Text>;
  const d = new Date(value);
  return (
    <Tooltip label={value} openDelay={300}>
      <Text span size="sm">
        {d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
      </Text>
    </Tooltip>
  );
}

export function JsonBlock({ value, maxHeight = 320 }: { value: unknown; maxHeight?: number }) {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return (
    <ScrollArea.Autosize mah={maxHeight} type="auto">
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {text}
      </Code>
    </ScrollArea.Autosize>
  );
}

/** A table that scrolls sideways on a phone instead of squeezing its columns. */
export function TableScroll({ children, minWidth = 720 }: { children: ReactNode; minWidth?: number }) {
  return (
    <ScrollArea type="auto" offsetScrollbars>
      <div style={{ minWidth }}>{children}</div>
    </ScrollArea>
  );
}

/** A range of whole days, as two date inputs give them ("2026-11-22" or ""). */
export interface DayRange {
  from: string;
  to: string;
}

/**
 * The API's inclusive time filters (createdAfter/createdBefore, updatedAfter/updatedBefore) for a
 * range of days in the browser's time zone: from the first instant of `from` to the last of `to`.
 */
export function dayRangeQuery(range: DayRange, after: string, before: string): Record<string, string | undefined> {
  const start = (day: string) => (/^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T00:00:00`) : undefined);
  const from = start(range.from);
  const to = start(range.to);
  return {
    [after]: from && !Number.isNaN(from.getTime()) ? from.toISOString() : undefined,
    [before]: to && !Number.isNaN(to.getTime()) ? new Date(to.getFullYear(), to.getMonth(), to.getDate() + 1, 0, 0, 0, -1).toISOString() : undefined,
  };
}

/** "<label> from" and "<label> to": two native date inputs (typed, picked, or cleared from the keyboard). */
export function DayRangeFilter({ label, value, onChange }: { label: string; value: DayRange; onChange: (range: DayRange) => void }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-end">
      <TextInput
        type="date"
        label={`${label} from`}
        value={value.from}
        max={value.to || undefined}
        onChange={(e) => onChange({ ...value, from: e.currentTarget.value })}
        w={150}
      />
      <TextInput
        type="date"
        label={`${label} to`}
        value={value.to}
        min={value.from || undefined}
        onChange={(e) => onChange({ ...value, to: e.currentTarget.value })}
        w={150}
      />
    </Group>
  );
}
