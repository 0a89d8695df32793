import { Badge, Table, Text } from '@mantine/core';
import { DateTime, TableScroll, StatusBadge } from './components';
import { formatMoney, type Amount } from './money';
import { linkProps, navigate } from './router';

/** The Transaction object of the spec (fields a server may leave out are optional). */
export interface Transaction {
  id: string;
  status: string;
  type: 'INCOMING' | 'OUTGOING';
  customerId?: string;
  platformCustomerId?: string;
  sentAmount?: Amount;
  receivedAmount?: Amount;
  source?: Record<string, unknown>;
  destination?: Record<string, unknown>;
  exchangeRate?: number;
  fees?: number;
  quoteId?: string;
  description?: string;
  failureReason?: string;
  settledAt?: string;
  createdAt: string;
  updatedAt?: string;
  reconciliationInstructions?: { reference?: string };
  refund?: { reference?: string; initiatedAt?: string; status?: string; settledAt?: string; reason?: string };
  rateDetails?: Record<string, number>;
  counterpartyInformation?: Record<string, unknown>;
}

export const TRANSACTION_STATUSES = ['CREATED', 'PENDING', 'PROCESSING', 'COMPLETED', 'REJECTED', 'FAILED', 'REFUNDED', 'EXPIRED'];

export function TransactionTable({ rows, showCustomer = true }: { rows: Transaction[]; showCustomer?: boolean }) {
  return (
    <TableScroll minWidth={820}>
      <Table highlightOnHover verticalSpacing="sm" data-testid="transactions-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Type</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th ta="right">Sent</Table.Th>
            <Table.Th ta="right">Received</Table.Th>
            {showCustomer && <Table.Th>Customer</Table.Th>}
            <Table.Th>Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((t) => (
            <Table.Tr key={t.id} className="clickable-row" onClick={() => navigate(`/transactions/${encodeURIComponent(t.id)}`)} data-testid="transaction-row">
              <Table.Td>
                <a className="plain-link" {...linkProps(`/transactions/${encodeURIComponent(t.id)}`)}>
                  <Badge variant="outline" color={t.type === 'OUTGOING' ? 'grape' : 'teal'} size="sm">
                    {t.type}
                  </Badge>
                </a>
              </Table.Td>
              <Table.Td>
                <StatusBadge status={t.status} />
              </Table.Td>
              <Table.Td ta="right">
                <Text size="sm">{formatMoney(t.sentAmount)}</Text>
              </Table.Td>
              <Table.Td ta="right">
                <Text size="sm">{formatMoney(t.receivedAmount)}</Text>
              </Table.Td>
              {showCustomer && (
                <Table.Td>
                  <Text size="sm">{t.platformCustomerId ?? t.customerId ?? '—'}</Text>
                </Table.Td>
              )}
              <Table.Td>
                <DateTime value={t.createdAt} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScroll>
  );
}
