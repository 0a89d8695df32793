import { Badge, Checkbox, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { DataState, DateTime, dayRangeQuery, DayRangeFilter, Empty, PageHeader, Pager, StatusBadge, TableScroll, type DayRange } from '../components';
import { usePaged } from '../hooks';
import { linkProps, navigate } from '../router';

export interface Customer {
  id: string;
  platformCustomerId: string;
  customerType: 'INDIVIDUAL' | 'BUSINESS';
  umaAddress: string;
  region?: string;
  currencies: string[];
  kycStatus: string;
  fullName?: string;
  birthDate?: string;
  nationality?: string;
  address?: Record<string, string>;
  businessInfo?: { legalName: string; tradingName?: string; registrationNumber?: string; incorporationCountry?: string; website?: string };
  isDeleted: boolean;
  createdAt: string;
  updatedAt: string;
}

export function customerName(c: Customer): string {
  return c.businessInfo?.legalName ?? c.fullName ?? c.platformCustomerId;
}

const CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD', 'MXN', 'BRL', 'PHP', 'INR', 'NGN', 'ZAR', 'KES', 'TZS', 'ZMW', 'RWF', 'MWK', 'UGX', 'XOF', 'BTC', 'USDC'];

export function CustomersPage() {
  const [platformCustomerId, setPlatformCustomerId] = useState('');
  const [umaAddress, setUmaAddress] = useState('');
  const [customerType, setCustomerType] = useState<string | null>(null);
  const [currency, setCurrency] = useState<string | null>(null);
  const [region, setRegion] = useState('');
  const [includeDeleted, setIncludeDeleted] = useState(false);
  const [created, setCreated] = useState<DayRange>({ from: '', to: '' });
  const [updated, setUpdated] = useState<DayRange>({ from: '', to: '' });
  const [search] = useDebouncedValue(
    { platformCustomerId: platformCustomerId.trim(), umaAddress: umaAddress.trim(), region: region.trim().toUpperCase() },
    300,
  );
  const regionFilter = /^[A-Z]{2}$/.test(search.region) ? search.region : undefined;
  const list = usePaged<Customer>('/customers', {
    platformCustomerId: search.platformCustomerId || undefined,
    umaAddress: search.umaAddress || undefined,
    customerType,
    currency,
    region: regionFilter,
    includeDeleted: includeDeleted || undefined,
    ...dayRangeQuery(created, 'createdAfter', 'createdBefore'),
    ...dayRangeQuery(updated, 'updatedAfter', 'updatedBefore'),
  });
  const rows = list.data?.data ?? [];
  const filtered = Boolean(
    search.platformCustomerId ||
    search.umaAddress ||
    customerType ||
    currency ||
    regionFilter ||
    includeDeleted ||
    created.from ||
    created.to ||
    updated.from ||
    updated.to,
  );

  return (
    <>
      <PageHeader title="Customers" description="The people and businesses your platform pays for. Create them with POST /customers." />
      <Group mb="md" gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label="Your customer id"
          placeholder="exact platformCustomerId"
          value={platformCustomerId}
          onChange={(e) => setPlatformCustomerId(e.currentTarget.value)}
          w={200}
        />
        <TextInput label="UMA address" placeholder="$alice@…" value={umaAddress} onChange={(e) => setUmaAddress(e.currentTarget.value)} w={200} />
        <Select label="Type" placeholder="Any" clearable data={['INDIVIDUAL', 'BUSINESS']} value={customerType} onChange={setCustomerType} w={150} />
        <Select label="Currency" placeholder="Any" clearable searchable data={CURRENCIES} value={currency} onChange={setCurrency} w={120} />
        <TextInput
          label="Region"
          placeholder="US"
          maxLength={2}
          value={region}
          onChange={(e) => setRegion(e.currentTarget.value)}
          w={80}
          error={region && !/^[A-Za-z]{2}$/.test(region.trim()) ? '2 letters' : undefined}
        />
        <DayRangeFilter label="Created" value={created} onChange={setCreated} />
        <DayRangeFilter label="Updated" value={updated} onChange={setUpdated} />
        <Checkbox label="Include deleted" checked={includeDeleted} onChange={(e) => setIncludeDeleted(e.currentTarget.checked)} mb={8} />
      </Group>
      <DataState
        loading={list.loading}
        error={list.error}
        onRetry={list.reload}
        what="Customers"
        isEmpty={rows.length === 0}
        empty={
          filtered ? (
            <Empty title="No customer matches these filters">Clear a filter, or check the exact id (ids and UMA addresses match exactly).</Empty>
          ) : (
            <Empty title="No customers yet">
              Create one with <code>POST /2025-10-13/customers</code> using an API token (see API tokens). Customers appear here as soon as they exist.
            </Empty>
          )
        }
      >
        <TableScroll minWidth={820}>
          <Table highlightOnHover verticalSpacing="sm" data-testid="customers-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Your id</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>KYC</Table.Th>
                <Table.Th>Currencies</Table.Th>
                <Table.Th>Created</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((c) => (
                <Table.Tr key={c.id} className="clickable-row" onClick={() => navigate(`/customers/${encodeURIComponent(c.id)}`)}>
                  <Table.Td>
                    <a className="plain-link" {...linkProps(`/customers/${encodeURIComponent(c.id)}`)}>
                      <Text size="sm" fw={500}>
                        {customerName(c)}
                      </Text>
                    </a>
                    <Text size="xs" c="dimmed">
                      {c.umaAddress}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {c.platformCustomerId}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {c.customerType}
                    {c.isDeleted && (
                      <Badge ml={6} color="gray" size="xs">
                        deleted
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge status={c.kycStatus} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {c.currencies.map((x) => (
                        <Badge key={x} variant="outline" size="sm">
                          {x}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <DateTime value={c.createdAt} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
        <Pager list={list} />
      </DataState>
      {list.loading && rows.length > 0 && (
        <Text size="xs" c="dimmed">
          Updating…
        </Text>
      )}
    </>
  );
}
