import { Group, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { DataState, dayRangeQuery, DayRangeFilter, Empty, PageHeader, Pager, type DayRange } from '../components';
import { usePaged } from '../hooks';
import { TRANSACTION_STATUSES, TransactionTable, type Transaction } from '../transactions';

const CUSTOMER_ID = /^Customer:[0-9a-f-]{36}$/i;

export function TransactionsPage() {
  const [status, setStatus] = useState<string | null>(null);
  const [type, setType] = useState<string | null>(null);
  const [customer, setCustomer] = useState('');
  const [created, setCreated] = useState<DayRange>({ from: '', to: '' });
  // The customer filter takes either Corridor's Customer id or the platform's own id for the customer.
  const [typed] = useDebouncedValue(customer.trim(), 300);
  const byId = CUSTOMER_ID.test(typed);
  const list = usePaged<Transaction>('/transactions', {
    status,
    type,
    customerId: byId ? typed : undefined,
    platformCustomerId: !byId && typed ? typed : undefined,
    ...dayRangeQuery(created, 'createdAfter', 'createdBefore'),
  });
  const rows = list.data?.data ?? [];
  const filtered = Boolean(status || type || typed || created.from || created.to);
  return (
    <>
      <PageHeader title="Transactions" description="Payments in and out, newest first. Open one for its timeline, amounts, rate, fees and webhooks." />
      <Group mb="md" gap="sm" align="flex-end" wrap="wrap">
        <Select label="Status" placeholder="Any" clearable data={TRANSACTION_STATUSES} value={status} onChange={setStatus} w={160} />
        <Select label="Type" placeholder="Any" clearable data={['OUTGOING', 'INCOMING']} value={type} onChange={setType} w={140} />
        <TextInput
          label="Customer"
          placeholder="Customer:… or your customer id"
          value={customer}
          onChange={(e) => setCustomer(e.currentTarget.value)}
          w={280}
          maxLength={128}
        />
        <DayRangeFilter label="Created" value={created} onChange={setCreated} />
      </Group>
      <DataState
        loading={list.loading}
        error={list.error}
        onRetry={list.reload}
        what="Transactions"
        isEmpty={rows.length === 0}
        empty={
          filtered ? (
            <Empty title="No transaction matches these filters">Clear a filter to see more (your customer ids match exactly).</Empty>
          ) : (
            <Empty title="No transactions yet">Create a quote and execute it (POST /quotes), or in the sandbox simulate one from Sandbox tools.</Empty>
          )
        }
      >
        <TransactionTable rows={rows} />
        <Pager list={list} />
      </DataState>
    </>
  );
}
