import { Group, Select, TextInput } from '@mantine/core';
import { useState } from 'react';
import { DataState, Empty, PageHeader, Pager } from '../components';
import { usePaged } from '../hooks';
import { TRANSACTION_STATUSES, TransactionTable, type Transaction } from '../transactions';

export function TransactionsPage() {
  const [status, setStatus] = useState<string | null>(null);
  const [type, setType] = useState<string | null>(null);
  const [customerId, setCustomerId] = useState('');
  const customerFilter = /^Customer:[0-9a-f-]{36}$/i.test(customerId.trim()) ? customerId.trim() : undefined;
  const list = usePaged<Transaction>('/transactions', { status, type, customerId: customerFilter });
  const rows = list.data?.data ?? [];
  const filtered = Boolean(status || type || customerFilter);
  return (
    <>
      <PageHeader title="Transactions" description="Payments in and out, newest first. Open one for its timeline, amounts, rate, fees and webhooks." />
      <Group mb="md" gap="sm" align="flex-end" wrap="wrap">
        <Select label="Status" placeholder="Any" clearable data={TRANSACTION_STATUSES} value={status} onChange={setStatus} w={160} />
        <Select label="Type" placeholder="Any" clearable data={['OUTGOING', 'INCOMING']} value={type} onChange={setType} w={140} />
        <TextInput
          label="Customer"
          placeholder="Customer:…"
          value={customerId}
          onChange={(e) => setCustomerId(e.currentTarget.value)}
          error={customerId.trim() && !customerFilter ? 'Paste a full Customer id' : undefined}
          w={320}
        />
      </Group>
      <DataState
        loading={list.loading}
        error={list.error}
        onRetry={list.reload}
        what="Transactions"
        isEmpty={rows.length === 0}
        empty={
          filtered ? (
            <Empty title="No transaction matches these filters">Clear a filter to see more.</Empty>
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
